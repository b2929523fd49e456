// Recurring events on DynamoDB Local with the real stream consumer: a create with `recurrence`
// answers its first event, the consumer writes every later occurrence as an event of its own, and
// lists, counts and reads show them as they show single events.
import { beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#lib/local/invoke.js';
import { keys } from '#lib/store/keys.js';
import type { EventItem } from '#lib/store/items.js';
import { roleToken } from '../support/tokens.js';
import { useStreamPoller } from '../support/stream.js';
import { useFreshTable } from '../support/table.js';
import { storedItem } from '../support/stored.js';
import { DRAIN_MS, EVERY_DATE, seriesEvents, TEST_MS } from '../support/series.js';
import { expandCalendar } from '../support/ical.js';

// Small chunks and a near horizon, so that a series of a few events spans several consumer calls
// and a rule without an end stays short (both are settings; their defaults are 50 and 60).
const CHUNK = 4;
const HORIZON_MONTHS = 12;
process.env.SERIES_CHUNK = String(CHUNK);
process.env.SERIES_HORIZON_MONTHS = String(HORIZON_MONTHS);

let editor: string;
let author: string;
beforeAll(async () => {
  editor = await roleToken('editor', 'series-editor');
  author = await roleToken('author', 'series-author');
});

const call = (method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number>; token?: string | null; lang?: 'en' | 'lt' | 'ru' } = {}) =>
  invoke(method, opts.lang ?? 'en', path, { body: opts.body, query: opts.query, token: opts.token === null ? undefined : (opts.token ?? editor) });

async function created(body: Record<string, unknown>, lang: 'en' | 'lt' | 'ru' = 'en'): Promise<any> {
  const res = await call('POST', '/events', { body, lang });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Every event of the series of `first`, as the list shows them, oldest first. */
const listed = (first: number, query: Record<string, string | number> = {}, lang: 'en' | 'lt' | 'ru' = 'en'): Promise<any[]> =>
  seriesEvents(first, (page) => call('GET', '/events', { query: { ...EVERY_DATE, page, ...query }, lang }));

describe('recurring events', () => {
  useFreshTable('series', { stream: true });
  const stream = useStreamPoller();

  it('writes a weekly series in its zone: every occurrence an event, 19:00 in Vilnius in winter and in summer', { timeout: TEST_MS }, async () => {
    const venue = (await call('POST', '/venues', { body: { venue: 'Series Hall', city: 'Vilnius' } })).body as { id: number };
    const first = await created({
      title: 'Weekly jazz',
      start_date: '2027-03-16 19:00:00',
      end_date: '2027-03-16 21:00:00',
      timezone: 'Europe/Vilnius',
      categories: ['Jazz'],
      venue: venue.id,
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE;TZID=Europe/Vilnius:20270330T190000', 'RDATE;TZID=Europe/Vilnius:20270415T180000'],
    });
    // The create answers the first occurrence, with the series' keys after TEC's.
    expect(first).toMatchObject({ start_date: '2027-03-16 19:00:00', utc_start_date: '2027-03-16 17:00:00', series_id: first.id });
    // Stored as written, rules first, then dates added, then dates taken.
    expect(first.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4', 'RDATE;TZID=Europe/Vilnius:20270415T180000', 'EXDATE;TZID=Europe/Vilnius:20270330T190000']);
    expect(Object.keys(first).slice(-2)).toEqual(['recurrence', 'series_id']);
    await stream.drain(DRAIN_MS);

    const all = await listed(first.id);
    // COUNT=4 gives 16, 23, 30 March and 6 April; the EXDATE takes 30 March; the RDATE adds 15 April.
    expect(all.map((e) => [e.start_date, e.end_date, e.utc_start_date])).toEqual([
      ['2027-03-16 19:00:00', '2027-03-16 21:00:00', '2027-03-16 17:00:00'],
      ['2027-03-23 19:00:00', '2027-03-23 21:00:00', '2027-03-23 17:00:00'],
      // Summer time from 28 March: the same wall time, an hour earlier in UTC.
      ['2027-04-06 19:00:00', '2027-04-06 21:00:00', '2027-04-06 16:00:00'],
      ['2027-04-15 18:00:00', '2027-04-15 20:00:00', '2027-04-15 15:00:00'],
    ]);
    expect(new Set(all.map((e) => e.id)).size).toBe(4);
    for (const e of all) {
      expect(e).toMatchObject({ title: 'Weekly jazz', series_id: first.id, recurrence: first.recurrence, venue: { id: venue.id } });
      expect(e.categories.map((c: { name: string }) => c.name)).toEqual(['Jazz']);
      // Each occurrence is readable by its own id and slug.
      const one = await call('GET', `/events/${e.id}`);
      expect(one.status).toBe(200);
      expect((one.body as any).start_date).toBe(e.start_date);
      expect((await call('GET', `/events/by-slug/${e.slug}`)).status).toBe(200);
    }
    // Counted as events are: the category's count, the venue's filter, the list's total.
    const cats = (await call('GET', '/categories', { query: { search: 'Jazz' } })).body as { categories: { count: number }[] };
    expect(cats.categories[0]!.count).toBe(4);
    const byVenue = await call('GET', '/events', { query: { venue: venue.id, start_date: '2027-01-01', end_date: '2027-12-31' } });
    expect((byVenue.body as { total: number }).total).toBe(4);
    expect(byVenue.headers['X-TEC-Total'] ?? byVenue.headers['x-tec-total']).toBe('4');
    // Filters see each occurrence in its own window.
    const april = await listed(first.id, { start_date: '2027-04-01', end_date: '2027-04-30' });
    expect(april.map((e) => e.start_date)).toEqual(['2027-04-06 19:00:00', '2027-04-15 18:00:00']);
  });

  it('writes a series longer than one chunk, all-day, past the first call of the consumer', { timeout: TEST_MS }, async () => {
    const count = CHUNK * 2 + 3;
    const first = await created({ title: 'Daily stand', start_date: '2027-06-01', end_date: '2027-06-01', all_day: true, recurrence: `RRULE:FREQ=DAILY;COUNT=${count}` });
    expect(first).toMatchObject({ all_day: true, start_date: '2027-06-01 00:00:00', end_date: '2027-06-01 23:59:59' });
    await stream.drain(DRAIN_MS);
    const stored = await storedItem<EventItem>(keys.post(first.id));
    expect(stored?.series).toMatchObject({ total: count, made: count });
    const all = await listed(first.id);
    expect(all.length).toBe(count);
    expect(all.at(-1)).toMatchObject({ start_date: '2027-06-11 00:00:00', end_date: '2027-06-11 23:59:59', all_day: true });
    // Every date once.
    expect(new Set(all.map((e) => e.start_date.slice(0, 10))).size).toBe(count);
  });

  it('refuses rules it cannot follow with 400 naming recurrence, and writes nothing', { timeout: TEST_MS }, async () => {
    const before = (await call('GET', '/events', { query: { start_date: '2000-01-01', end_date: '2100-01-01' } })).body as { total: number };
    const cases: [unknown, RegExp][] = [
      [['RRULE:FREQ=SECONDLY'], /recurrence\[0\]/],
      [['RRULE:FREQ=WEEKLY;COUNT=2', 'DTSTART:20270101T000000'], /recurrence\[1\]/],
      [['EXDATE:20270101T000000Z'], /RRULE or RDATE/],
      [[42], /recurrence/],
      [['RRULE:FREQ=DAILY;COUNT=6000'], /more than 5000 occurrences/],
      // The first date is the event's start: an EXDATE may not take it.
      [['RRULE:FREQ=DAILY;COUNT=3', 'EXDATE;TZID=Europe/Vilnius:20270701T100000'], /first occurrence/],
    ];
    for (const [recurrence, message] of cases) {
      const res = await call('POST', '/events', {
        body: { title: 'Refused', start_date: '2027-07-01 10:00:00', end_date: '2027-07-01 11:00:00', timezone: 'Europe/Vilnius', venue: { venue: 'Never written' }, recurrence },
      });
      expect(res.status, JSON.stringify(recurrence)).toBe(400);
      expect(res.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { recurrence: expect.stringMatching(message) } } });
    }
    await stream.drain(DRAIN_MS);
    const after = (await call('GET', '/events', { query: { start_date: '2000-01-01', end_date: '2100-01-01' } })).body as { total: number };
    expect(after.total).toBe(before.total);
    expect(((await call('GET', '/venues', { query: { search: 'Never written' } })).body as { venues?: unknown[] }).venues ?? []).toEqual([]);
  });

  it('follows a rule without COUNT or UNTIL to the horizon, keeps the author and status, in the request language', { timeout: TEST_MS }, async () => {
    const first = await created(
      { title: 'Mėnesinis', start_date: '2027-01-31 10:00:00', end_date: '2027-01-31 11:00:00', status: 'draft', recurrence: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1'] },
      'lt',
    );
    expect(first.status).toBe('draft');
    await stream.drain(DRAIN_MS);
    const all = await listed(first.id, { status: 'draft' }, 'lt');
    // The last day of every month, from January 2027 to the horizon HORIZON_MONTHS from now.
    const horizon = new Date();
    horizon.setUTCMonth(horizon.getUTCMonth() + HORIZON_MONTHS);
    const lastDays = Array.from({ length: 24 }, (_, m) => Date.UTC(2027, m + 1, 0, 10)).filter((t) => t <= horizon.getTime());
    expect(all.length).toBe(lastDays.length);
    expect(all.every((e) => e.status === 'draft' && e.lang === 'lt' && e.author === first.author)).toBe(true);
    expect(all.slice(0, 3).map((e) => e.start_date)).toEqual(['2027-01-31 10:00:00', '2027-02-28 10:00:00', '2027-03-31 10:00:00']);
    expect(Date.parse(`${all.at(-1).start_date.slice(0, 10)}T00:00:00Z`)).toBeLessThanOrEqual(horizon.getTime());
    expect(all.length).toBe(new Set(all.map((e) => e.start_date)).size);
    // Anonymous callers see no drafts.
    const anonymous = await call('GET', '/events', { query: { start_date: '2027-01-01', end_date: '2027-12-31' }, token: null, lang: 'lt' });
    expect(((anonymous.body as { events?: any[] }).events ?? []).filter((e) => e.series_id === first.id)).toEqual([]);
  });

  it('keeps a single event exactly as TEC answers it, and an occurrence edited alone keeps its series', { timeout: TEST_MS }, async () => {
    const single = await created({ title: 'Once', start_date: '2027-08-01 10:00:00', end_date: '2027-08-01 11:00:00' });
    expect(single).not.toHaveProperty('recurrence');
    expect(single).not.toHaveProperty('series_id');
    const first = await created({ title: 'Twice', start_date: '2027-08-02 10:00:00', end_date: '2027-08-02 11:00:00', recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] });
    await stream.drain(DRAIN_MS);
    const [, second] = await listed(first.id);
    const edited = await call('POST', `/events/${second.id}`, {
      body: { title: 'Twice, moved', start_date: '2027-08-03 12:00:00', end_date: '2027-08-03 13:00:00' },
      token: author,
    });
    // An author may not edit an editor's event.
    expect(edited.status).toBe(403);
    const mine = await call('POST', `/events/${second.id}`, { body: { title: 'Twice, moved', start_date: '2027-08-03 12:00:00', end_date: '2027-08-03 13:00:00' } });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ title: 'Twice, moved', start_date: '2027-08-03 12:00:00', series_id: first.id, recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] });
    // The first event is not changed by its occurrence's edit.
    expect((await call('GET', `/events/${first.id}`)).body).toMatchObject({ title: 'Twice', start_date: '2027-08-02 10:00:00' });
  });

  it('gives calendar feeds a series as one recurring event that expands to exactly the events the list shows', { timeout: TEST_MS }, async () => {
    const first = await created({
      title: 'Choir',
      start_date: '2028-03-20 19:00:00',
      end_date: '2028-03-20 21:00:00',
      timezone: 'Europe/Vilnius',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6', 'RDATE;TZID=Europe/Vilnius:20280412T180000'],
    });
    await stream.drain(DRAIN_MS);
    const all = await listed(first.id);
    expect(all).toHaveLength(7);
    const window = { start_date: '2028-03-01', end_date: '2028-05-31' };
    /** The feed of `query`, expanded as a client does, against the list's events of the same query. */
    const compare = async (query: Record<string, string>, token?: string | null) => {
      const [feed, list] = await Promise.all([
        call('GET', '/events', { query: { ...query, ical: 1 }, token }),
        call('GET', '/events', { query: { ...query, per_page: 50 }, token }),
      ]);
      expect(feed.status).toBe(200);
      const shown = expandCalendar(feed.body as string).map((o) => [new Date(o.start * 1000).toISOString(), o.summary]);
      const listed = ((list.body as { events?: any[] }).events ?? []).map((e) => [`${e.utc_start_date.replace(' ', 'T')}.000Z`, e.title]);
      expect(shown.sort()).toEqual(listed.sort());
      return feed.body as string;
    };
    // Whole: the series' own rule.
    expect(await compare(window)).toMatch(/\r\nRRULE:FREQ=WEEKLY;COUNT=6\r\n/);
    // One event deleted, one moved and renamed, one a draft: the feed gives the dates it holds, and the changed one apart.
    expect((await call('DELETE', `/events/${all[2].id}`, { query: { force: 'true' } })).status).toBe(200);
    expect((await call('POST', `/events/${all[3].id}`, { body: { title: 'Choir, moved', start_date: '2028-04-11 17:00:00', end_date: '2028-04-11 18:00:00' } })).status).toBe(200);
    expect((await call('POST', `/events/${all[5].id}`, { body: { status: 'draft' } })).status).toBe(200);
    await stream.drain(DRAIN_MS);
    const partial = await compare(window, null);
    expect(partial).not.toContain('RRULE');
    expect(partial).toContain('RECURRENCE-ID;TZID=Europe/Vilnius:20280410T190000');
    // An editor sees the draft too; a window of April only holds April's events.
    await compare(window);
    await compare({ start_date: '2028-04-01', end_date: '2028-04-30' }, null);
  });

  it('makes a single event recurring by an update, and refuses new rules for an event of a series', { timeout: TEST_MS }, async () => {
    const single = await created({ title: 'Later weekly', start_date: '2027-10-04 18:00:00', end_date: '2027-10-04 19:00:00' });
    const made = await call('POST', `/events/${single.id}`, { body: { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ series_id: single.id, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] });
    await stream.drain(DRAIN_MS);
    const all = await listed(single.id);
    expect(all.map((e) => e.start_date)).toEqual(['2027-10-04 18:00:00', '2027-10-11 18:00:00', '2027-10-18 18:00:00']);
    const again = await call('POST', `/events/${all[1].id}`, { body: { title: 'Renamed', recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] } });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { recurrence: expect.stringContaining(`series of event ${single.id}`) } } });
    // Nothing was written: the title stays.
    expect(((await call('GET', `/events/${all[1].id}`)).body as { title: string }).title).toBe('Later weekly');
  });
});
