// An export file from an Events Calendar Pro site: each series is imported as a series, with its
// rules in RFC 5545 and every occurrence an event here (the import writes them, as no stream
// consumer runs during it); a series RFC 5545 cannot say is imported as its own dates and the run
// says why. A second run of the same file changes nothing, a changed series text reaches every
// occurrence, and rules the site changed are given to the series here and said so.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { formatSummary, importEntries } from '#lib/import/run.js';
import { readWxr } from '#lib/import/wxr-reader.js';
import { wxrDocument, wxrItem } from '../support/wxr-export.js';
import { useFreshTable } from '../support/table.js';
import { storedItem } from '../support/stored.js';
import { keys } from '#lib/store/keys.js';

useFreshTable('import-pro-series');
let token: string;
beforeAll(async () => {
  token = await roleToken('editor', 'site-import');
});

// PHP's serialize() output of Pro's `_EventRecurrence` (test/fixtures/pro-recurrence/classic.json).
const classic = JSON.parse(readFileSync(new URL('../fixtures/pro-recurrence/classic.json', import.meta.url), 'utf8')) as Record<string, string>;
const when: [string, string][] = [
  ['_EventStartDate', '2027-03-01 19:00:00'],
  ['_EventEndDate', '2027-03-01 21:00:00'],
  ['_EventTimezone', 'Europe/Vilnius'],
];
const event = (id: number, meta: [string, string][], title = `Event ${id}`) =>
  wxrItem({ id, type: 'tribe_events', title, slug: `event-${id}`, creator: 'admin', meta: [...meta, ...when] });
const times = { start_time: '19:00:00', end_time: '21:00:00', all_day: false, multi_day: false };
const blocks = (rules: object[], exclusions: object[] = []): [string, string][] => [
  ['_tribe_blocks_recurrence_rules', JSON.stringify(rules.map((r) => ({ ...times, ...r })))],
  ['_tribe_blocks_recurrence_exclusions', JSON.stringify(exclusions.map((r) => ({ ...times, ...r })))],
];

const items = (title401 = 'Event 401', rules401 = classic['every week, after 5']!) => [
  event(401, [['_EventRecurrence', rules401]], title401),
  event(402, [['_EventRecurrence', classic['every month, on an end date']!]]),
  // The block editor's rows, as Pro writes them beside the classic one.
  event(403, blocks([{ type: 'daily', limit_type: 'count', limit: 3, between: 2 }])),
  // A series undone: Pro keeps the row with no rules.
  event(404, [['_EventRecurrence', 'a:2:{s:5:"rules";a:0:{}s:10:"exclusions";a:0:{}}']]),
  event(405, [['_EventRecurrence', 'O:8:"stdClass":0:{}']]),
  event(406, []),
  // Mondays, 8 times, less an excluded date and the days of an excluded rule (the first Monday of
  // March, which is the event itself and stays, and of April).
  event(
    407,
    blocks(
      [{ type: 'weekly', between: 1, limit_type: 'count', limit: 8, days: [1] }],
      [
        { type: 'single', start_date: '2027-03-22' },
        { type: 'monthly', between: 1, limit_type: 'count', limit: 2, day: 1, week: 'first' },
      ],
    ),
  ),
  // Off its rule's pattern: the event (1 March) is the first occurrence, then every 31st until August.
  event(408, blocks([{ type: 'monthly', between: 1, limit_type: 'date', limit: '2027-08-01', day: 31, week: null }])),
];

async function* chunks(file: string) {
  yield file;
}

const run = (file: string) => importEntries(readWxr(chunks(file)), { send: invoke, token });

/** The events of a series here, by start, with the series' fields each shows. */
async function seriesEvents(id: number) {
  const res = await invoke('GET', 'en', '/events', { token, query: { start_date: '2027-01-01', end_date: '2028-12-31', per_page: 50 } });
  expect(res.status).toBe(200);
  return (res.body.events as { id: number; title: string; start_date: string; series_id?: number; recurrence?: string[] }[])
    .filter((e) => e.series_id === id)
    .map((e) => ({ id: e.id, title: e.title, start: e.start_date, recurrence: e.recurrence }));
}

const VILNIUS = 'TZID=Europe/Vilnius';

describe('an export from an Events Calendar Pro site', () => {
  it('imports each series as a series, its occurrences written, and says which stayed their own dates', async () => {
    const s = await run(wxrDocument(items()));
    expect(s.failed).toEqual([]);
    expect(s.kinds.event.created).toBe(8);
    expect(s.series.map((x) => [x.event, x.lines ?? x.alone, x.events])).toEqual([
      [401, ['RRULE:FREQ=WEEKLY;COUNT=5'], 5],
      [402, ['RRULE:FREQ=MONTHLY;UNTIL=20270630T205959Z'], 4],
      [403, ['RRULE:FREQ=DAILY;COUNT=3;INTERVAL=2'], 3],
      [405, '_EventRecurrence: not a serialised PHP value this reader accepts: an object is not accepted (byte 0)', undefined],
      [407, ['RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=MO', `EXDATE;${VILNIUS}:20270322T190000,20270405T190000`], 6],
      [408, ['RRULE:FREQ=MONTHLY;UNTIL=20270801T205959Z;BYMONTHDAY=31', `RDATE;${VILNIUS}:20270301T190000`], 4],
    ]);
    const text = formatSummary(s);
    expect(text).toContain('6 events are series on the site (Events Calendar Pro). 5 imported as series (22 events in all): event 401 RRULE:FREQ=WEEKLY;COUNT=5; ');
    expect(text).toContain('1 imported as their own dates only, as RFC 5545 cannot say their rules: event 405 (_EventRecurrence: not a serialised PHP value');

    const weekly = await seriesEvents(401);
    expect(weekly.map((e) => e.start)).toEqual(['2027-03-01 19:00:00', '2027-03-08 19:00:00', '2027-03-15 19:00:00', '2027-03-22 19:00:00', '2027-03-29 19:00:00']);
    expect(weekly[0]!.id).toBe(401);
    for (const e of weekly) expect([e.title, e.recurrence]).toEqual(['Event 401', ['RRULE:FREQ=WEEKLY;COUNT=5']]);
    expect((await seriesEvents(407)).map((e) => e.start.slice(0, 10))).toEqual(['2027-03-01', '2027-03-08', '2027-03-15', '2027-03-29', '2027-04-12', '2027-04-19']);
    expect((await seriesEvents(408)).map((e) => e.start.slice(0, 10))).toEqual(['2027-03-01', '2027-03-31', '2027-05-31', '2027-07-31']);
    // The series the run could not say, and the one undone, are their own dates only.
    for (const id of [404, 405, 406]) {
      const one = await invoke('GET', 'en', `/events/${id}`, { token });
      expect([one.status, one.body.start_date, 'series_id' in one.body]).toEqual([200, '2027-03-01 19:00:00', false]);
    }
  });

  it('says on a dry run which series would come as series, and writes none of them', async () => {
    const file = wxrDocument([event(601, [['_EventRecurrence', classic['every week, after 5']!]])]);
    const s = await importEntries(readWxr(chunks(file)), { send: invoke, token, dryRun: true });
    expect(s.series.map((x) => [x.event, x.lines])).toEqual([[601, ['RRULE:FREQ=WEEKLY;COUNT=5']]]);
    expect(formatSummary(s, true)).toContain('1 would be imported as series: event 601 RRULE:FREQ=WEEKLY;COUNT=5');
    expect((await invoke('GET', 'en', '/events/601', { token })).status).toBe(404);
  });

  it('changes nothing when the same file is imported again', async () => {
    const before = await seriesEvents(401);
    const s = await run(wxrDocument(items()));
    expect([s.failed, s.kinds.event.unchanged, s.kinds.event.created]).toEqual([[], 8, 0]);
    expect(await seriesEvents(401)).toEqual(before);
  });

  it("writes a series' changed text to every event of it, and the rules the site changed, saying so", async () => {
    const before = await seriesEvents(401);
    const s = await run(wxrDocument(items('Event 401, renamed')));
    expect([s.failed, s.kinds.event.updated]).toEqual([[], 1]);
    const after = await seriesEvents(401);
    expect(after.map((e) => [e.id, e.start])).toEqual(before.map((e) => [e.id, e.start]));
    expect(after.map((e) => e.title)).toEqual(Array(5).fill('Event 401, renamed'));

    // New rules: the events of the dates that stay (1 and 22 March) keep their ids, the others go.
    const changed = await run(wxrDocument(items('Event 401, renamed', classic['every third day, after 10']!)));
    expect(changed.failed).toEqual([]);
    expect(changed.series.find((x) => x.event === 401)).toMatchObject({ changed: true, events: 10, lines: ['RRULE:FREQ=DAILY;COUNT=10;INTERVAL=3'] });
    expect(formatSummary(changed)).toContain(
      '1 given the rules the site changed them to (the events of dates that stay keep their ids, the others go to the trash) (10 events in all): event 401 RRULE:FREQ=DAILY;COUNT=10;INTERVAL=3',
    );
    const now = await seriesEvents(401);
    expect(now.map((e) => e.start.slice(0, 10))).toEqual(Array.from({ length: 10 }, (_, i) => `2027-03-${String(1 + 3 * i).padStart(2, '0')}`));
    const stay = before.filter((e) => ['2027-03-01', '2027-03-22'].includes(e.start.slice(0, 10)));
    expect(now.filter((e) => stay.some((s) => s.start === e.start)).map((e) => e.id)).toEqual(stay.map((e) => e.id));
    expect(now.every((e) => e.title === 'Event 401, renamed' && JSON.stringify(e.recurrence) === JSON.stringify(['RRULE:FREQ=DAILY;COUNT=10;INTERVAL=3']))).toBe(true);
    for (const gone of before.filter((e) => !stay.includes(e))) expect((await storedItem<{ status: string }>(keys.post(gone.id)))?.status).toBe('trash');
    // Once more: nothing changes.
    const again = await run(wxrDocument(items('Event 401, renamed', classic['every third day, after 10']!)));
    expect([again.failed, again.kinds.event.updated]).toEqual([[], 0]);
    expect((await seriesEvents(401)).map((e) => e.id)).toEqual(now.map((e) => e.id));
  });
});

describe('an export from Events Calendar Pro 3 to 5, which made each occurrence a post of its own', () => {
  // Pro copied the first event's meta, its rules included, to a child post per occurrence.
  const rules = classic['every week, after 5']!;
  const child = (id: number, date: string) =>
    wxrItem({
      id,
      type: 'tribe_events',
      title: 'Event 501',
      slug: `event-501-${date}`,
      creator: 'admin',
      parent: 501,
      meta: [
        ['_EventRecurrence', rules],
        ['_EventStartDate', `${date} 19:00:00`],
        ['_EventEndDate', `${date} 21:00:00`],
        ['_EventTimezone', 'Europe/Vilnius'],
      ],
    });

  it("writes the series once, its occurrences keeping the ids of the site's posts for them", async () => {
    const file = wxrDocument([
      wxrItem({ id: 501, type: 'tribe_events', title: 'Event 501', slug: 'event-501', creator: 'admin', meta: [['_EventRecurrence', rules], ...when] }),
      child(502, '2027-03-08'),
      child(503, '2027-03-15'),
      child(505, '2027-03-29'),
      // Moved off the series' dates on its own: an event of its own.
      child(506, '2027-04-10'),
    ]);
    const s = await run(file);
    expect(s.failed).toEqual([]);
    expect(s.kinds.event.created).toBe(2);
    expect(s.series.filter((x) => x.event > 500).map((x) => [x.event, x.lines, x.siteIds, x.events])).toEqual([[501, ['RRULE:FREQ=WEEKLY;COUNT=5'], 3, 5]]);
    expect(formatSummary(s)).toContain("event 501 RRULE:FREQ=WEEKLY;COUNT=5 (3 occurrences keep the ids of the site's posts for them)");
    const events = await seriesEvents(501);
    expect(events.map((e) => e.start.slice(0, 10))).toEqual(['2027-03-01', '2027-03-08', '2027-03-15', '2027-03-22', '2027-03-29']);
    const ids = events.map((e) => e.id);
    expect([ids[0], ids[1], ids[2], ids[4]]).toEqual([501, 502, 503, 505]);
    // The occurrence without a post of its own takes a new id, after every post of the site.
    expect(ids[3]).toBeGreaterThan(506);
    const moved = await invoke('GET', 'en', '/events/506', { token });
    expect([moved.status, moved.body.start_date, 'series_id' in moved.body]).toEqual([200, '2027-04-10 19:00:00', false]);
    const kept = await invoke('GET', 'en', '/events/502', { token });
    expect([kept.body.slug, kept.body.series_id]).toEqual(['event-501-2027-03-08', 501]);

    // Again: nothing changes, and no occurrence is written twice.
    const again = await run(file);
    expect([again.failed, again.kinds.event.created, again.kinds.event.updated]).toEqual([[], 0, 0]);
    expect((await seriesEvents(501)).map((e) => e.id)).toEqual(ids);
  });
});
