// An export file from an Events Calendar Pro site: each series is imported as the one event the
// file holds, and the run says so, with the series' rules in RFC 5545 (or why they cannot be said so),
// rather than keeping only its first date in silence.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { formatSummary, importEntries } from '#lib/import/run.js';
import { readWxr } from '#lib/import/wxr-reader.js';
import { wxrDocument, wxrItem } from '../support/wxr-export.js';
import { useFreshTable } from '../support/table.js';

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
const event = (id: number, meta: [string, string][]) =>
  wxrItem({ id, type: 'tribe_events', title: `Event ${id}`, slug: `event-${id}`, creator: 'admin', meta: [...meta, ...when] });

const FILE = wxrDocument([
  event(401, [['_EventRecurrence', classic['every week, after 5']!]]),
  event(402, [['_EventRecurrence', classic['every month, on an end date']!]]),
  // The block editor's rows, as Pro writes them beside the classic one.
  event(403, [
    [
      '_tribe_blocks_recurrence_rules',
      JSON.stringify([
        {
          type: 'daily',
          all_day: false,
          multi_day: false,
          start_date: '2027-03-01',
          start_time: '19:00:00',
          end_date: '2027-03-01',
          end_time: '21:00:00',
          limit_type: 'count',
          limit: 3,
          between: 2,
        },
      ]),
    ],
  ]),
  // A series undone: Pro keeps the row with no rules.
  event(404, [['_EventRecurrence', 'a:2:{s:5:"rules";a:0:{}s:10:"exclusions";a:0:{}}']]),
  event(405, [['_EventRecurrence', 'O:8:"stdClass":0:{}']]),
  event(406, []),
]);

async function* chunks() {
  yield FILE;
}

describe('an export from an Events Calendar Pro site', () => {
  it('imports each series as its one event, and lists the series with their rules', async () => {
    const s = await importEntries(readWxr(chunks()), { send: invoke, token });
    expect(s.failed).toEqual([]);
    expect(s.kinds.event.created).toBe(6);
    expect(s.series.map((x) => [x.event, x.series])).toEqual([
      [401, { lines: ['RRULE:FREQ=WEEKLY;COUNT=5'], excludeRules: [] }],
      [402, { lines: ['RRULE:FREQ=MONTHLY;UNTIL=20270630T205959Z'], excludeRules: [] }],
      [403, { lines: ['RRULE:FREQ=DAILY;INTERVAL=2;COUNT=3'], excludeRules: [] }],
      [405, { unsupported: '_EventRecurrence: not a serialised PHP value this reader accepts: an object is not accepted (byte 0)' }],
    ]);
    const text = formatSummary(s);
    expect(text).toContain(
      '4 events are series on the site (Events Calendar Pro): this calendar keeps no series yet, so each was imported as its own dates only. Their rules: event 401: RRULE:FREQ=WEEKLY;COUNT=5; event 402: RRULE:FREQ=MONTHLY;UNTIL=20270630T205959Z; event 403: RRULE:FREQ=DAILY;INTERVAL=2;COUNT=3; event 405: (_EventRecurrence: not a serialised PHP value',
    );
    const stored = await invoke('GET', 'en', '/events/401', { token });
    expect([stored.status, stored.body.start_date, stored.body.end_date]).toEqual([200, '2027-03-01 19:00:00', '2027-03-01 21:00:00']);
  });
});
