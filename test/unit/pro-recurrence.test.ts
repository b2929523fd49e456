// Events Calendar Pro's series as RFC 5545 lines: every rule type, end type, interval, weekday,
// month ordinal and exclusion Pro writes, in its classic meta, its older flat meta and its block
// editor's JSON, and what RFC 5545 cannot say (each refused in words, never imported wrong).
// Shapes: classic `rules`/`exclusions` as Pro 5.x's Meta_Builder saves them (Pro 4.4 to 6.x keep
// them), 'Every …' rules as Pro 4.x saved them before 4.4, start times as Pro 4.3 did, flat rules
// as Pro 3.x did, and the block editor's JSON as Pro 4.5 to 5.x write it.
import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { type ProEvent, proBlocksRecurrenceToRfc5545, proRecurrenceToRfc5545 } from '#lib/import/pro-recurrence/rfc5545.js';

// PHP 8's serialize() of each shape (test/fixtures/pro-recurrence/classic.json), by name.
const classic: Record<string, string> = JSON.parse(readFileSync(new URL('../fixtures/pro-recurrence/classic.json', import.meta.url), 'utf8'));
// Monday 1 March 2027, 19:00 to 21:00 in Vilnius (EET, UTC+2 until 28 March, then EEST, UTC+3).
const event: ProEvent = { start: '2027-03-01 19:00:00', end: '2027-03-01 21:00:00', timezone: 'Europe/Vilnius' };
const V = 'TZID=Europe/Vilnius';

const expected: Record<string, string[] | RegExp> = {
  'every day, never ending (4.x, before the 4.4 update)': ['RRULE:FREQ=DAILY'],
  'every week, after 5': ['RRULE:FREQ=WEEKLY;COUNT=5'],
  // The end date's whole day, 23:59:59 in Vilnius (EEST) in UTC, as RFC 5545 asks with a TZID'd start.
  'every month, on an end date': ['RRULE:FREQ=MONTHLY;UNTIL=20270630T205959Z'],
  'every year': ['RRULE:FREQ=YEARLY'],
  'every third day, after 10': ['RRULE:FREQ=DAILY;INTERVAL=3;COUNT=10'],
  'every other week on Monday, Wednesday and Friday, until a date': ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR;UNTIL=20270630T205959Z'],
  'monthly on the same day, after 6': ['RRULE:FREQ=MONTHLY;COUNT=6'],
  'monthly on the first Monday': ['RRULE:FREQ=MONTHLY;BYDAY=1MO'],
  'every other month on the last Friday': ['RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR'],
  'monthly on day 31': ['RRULE:FREQ=MONTHLY;BYMONTHDAY=31'],
  'monthly on the last day': ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1'],
  'yearly in March, June and September on the same day': ['RRULE:FREQ=YEARLY;BYMONTH=3,6,9;BYMONTHDAY=1'],
  'yearly in March and October on the last Sunday': ['RRULE:FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU'],
  'every second year in January and July on the 15th': ['RRULE:FREQ=YEARLY;INTERVAL=2;BYMONTH=1,7;BYMONTHDAY=15'],
  'yearly on the 31st of January and April': /day 31 of a month that can be shorter/,
  'weekly with an extra date at the event time': ['RRULE:FREQ=WEEKLY;BYDAY=MO', `RDATE;${V}:20270310T190000`],
  'an extra date at its own time': [`RDATE;VALUE=PERIOD;${V}:20270310T100000/20270310T113000`],
  'weekly with an excluded date and an excluded rule': ['RRULE:FREQ=WEEKLY;BYDAY=MO', `EXDATE;${V}:20270315T190000`],
  'weekly at another time': /weekly rule whose occurrences start at 10:00 and last 120 minutes, while the event starts at 19:00/,
  'weekly at the event time, spelled out': ['RRULE:FREQ=WEEKLY;BYDAY=TU'],
  "daily with a 4.3 start time and duration (the event's)": ['RRULE:FREQ=DAILY'],
  'daily with a 4.3 start time and duration (another)': /start at 08:30 and last 60 minutes/,
  '3.x flat: monthly on the second Wednesday, with an excluded date': ['RRULE:FREQ=MONTHLY;BYDAY=2WE;UNTIL=20271231T215959Z', `EXDATE;${V}:20270414T190000`],
  '3.x flat: yearly in May on the first Friday': ['RRULE:FREQ=YEARLY;BYMONTH=5;BYDAY=1FR;COUNT=4'],
  '3.x flat: every week': ['RRULE:FREQ=WEEKLY'],
  'no recurrence': [],
};

describe('classic _EventRecurrence meta', () => {
  it('has an expectation for every fixture', () => {
    expect(Object.keys(expected).sort()).toEqual(Object.keys(classic).sort());
  });

  it.each(Object.entries(expected))('%s', (name, want) => {
    const got = proRecurrenceToRfc5545(classic[name]!, event);
    if (want instanceof RegExp) expect(got).toEqual({ unsupported: expect.stringMatching(want) });
    else expect(got).toMatchObject({ lines: want });
  });

  it('expands in an RFC 5545 reader to the dates Pro makes', () => {
    const firstDates = (name: string, n: number) => {
      const got = proRecurrenceToRfc5545(classic[name]!, event) as { lines: string[] };
      const recur = ICAL.Recur.fromString(got.lines[0]!.slice('RRULE:'.length));
      const it = recur.iterator(ICAL.Time.fromDateTimeString('2027-03-01T19:00:00'));
      return Array.from({ length: n }, () => it.next()?.toString().slice(0, 10));
    };
    expect(firstDates('monthly on the first Monday', 3)).toEqual(['2027-03-01', '2027-04-05', '2027-05-03']);
    // An event off the rule's pattern: the rule alone yields only the pattern's dates (the event is DTSTART's).
    expect(firstDates('monthly on day 31', 3)).toEqual(['2027-03-31', '2027-05-31', '2027-07-31']);
    expect(firstDates('yearly in March and October on the last Sunday', 2)).toEqual(['2027-03-28', '2027-10-31']);
    expect(firstDates('every other week on Monday, Wednesday and Friday, until a date', 5)).toEqual(['2027-03-01', '2027-03-03', '2027-03-05', '2027-03-15', '2027-03-17']);
  });

  it('returns excluded rules apart, for the caller to expand and subtract', () => {
    expect(proRecurrenceToRfc5545(classic['weekly with an excluded date and an excluded rule']!, event)).toEqual({
      lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO', `EXDATE;${V}:20270315T190000`],
      excludeRules: ['RRULE:FREQ=WEEKLY;INTERVAL=4;BYDAY=MO;COUNT=3'],
    });
  });

  it('gives all-day events dates, and fixed offsets UTC times', () => {
    const allDay = { start: '2027-03-01 00:00:00', end: '2027-03-01 23:59:59', timezone: 'Europe/Vilnius', allDay: true };
    expect(proRecurrenceToRfc5545(classic['every month, on an end date']!, allDay)).toMatchObject({ lines: ['RRULE:FREQ=MONTHLY;UNTIL=20270630'] });
    expect(proRecurrenceToRfc5545(classic['weekly with an excluded date and an excluded rule']!, allDay)).toMatchObject({
      lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO', 'EXDATE;VALUE=DATE:20270315'],
    });
    const fixed = { ...event, timezone: 'UTC+2' };
    expect(proRecurrenceToRfc5545(classic['weekly with an extra date at the event time']!, fixed)).toMatchObject({
      lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO', 'RDATE:20270310T170000Z'],
    });
    expect(proRecurrenceToRfc5545(classic['every week, after 5']!, { ...event, timezone: 'UTC' })).toMatchObject({ lines: ['RRULE:FREQ=WEEKLY;COUNT=5'] });
  });

  it('says plainly what it cannot read', () => {
    expect(proRecurrenceToRfc5545('O:8:"stdClass":0:{}', event)).toEqual({ unsupported: expect.stringMatching(/^_EventRecurrence: .*an object/) });
    expect(proRecurrenceToRfc5545(classic['every year']!, { ...event, timezone: 'Mars/Olympus' })).toHaveProperty('unsupported');
    const odd = 'a:1:{s:5:"rules";a:1:{i:0;a:2:{s:4:"type";s:6:"Custom";s:6:"custom";a:1:{s:4:"type";s:6:"Hourly";}}}}';
    expect(proRecurrenceToRfc5545(odd, event)).toEqual({ unsupported: "a rule of type 'Custom' / 'Hourly', which Pro does not define" });
    const badDay = 'a:1:{s:5:"rules";a:1:{i:0;a:2:{s:4:"type";s:6:"Custom";s:6:"custom";a:2:{s:4:"type";s:6:"Weekly";s:4:"week";a:1:{s:3:"day";a:1:{i:0;s:1:"9";}}}}}}';
    expect(proRecurrenceToRfc5545(badDay, event)).toEqual({ unsupported: expect.stringMatching(/weekly rule on days/) });
  });
});

describe("the block editor's JSON meta", () => {
  const times = { start_time: '19:00:00', end_time: '21:00:00', all_day: false, multi_day: false };
  const blocks = (rules: object[], exclusions: object[] = []) => proBlocksRecurrenceToRfc5545(JSON.stringify(rules), JSON.stringify(exclusions), event);

  it.each([
    ['weekly on Tuesday and Thursday, 8 times', { type: 'weekly', between: 1, limit_type: 'count', limit: 8, days: [2, 4] }, 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=8'],
    [
      'monthly on the last Friday until a date',
      { type: 'monthly', between: 1, limit_type: 'date', limit: '2027-09-30', day: 5, week: 'last' },
      'RRULE:FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20270930T205959Z',
    ],
    ['monthly on day 31', { type: 'monthly', between: 1, limit_type: 'never', day: 31, week: null }, 'RRULE:FREQ=MONTHLY;BYMONTHDAY=31'],
    [
      'every third year in March and June on the first Monday',
      { type: 'yearly', between: 3, limit_type: 'never', month: [3, 6], day: 1, week: 'first' },
      'RRULE:FREQ=YEARLY;INTERVAL=3;BYMONTH=3,6;BYDAY=1MO',
    ],
    ['daily, every 2 days', { type: 'daily', between: 2, limit_type: 'never' }, 'RRULE:FREQ=DAILY;INTERVAL=2'],
    ['a single extra date', { type: 'single', start_date: '2027-04-01' }, `RDATE;${V}:20270401T190000`],
  ])('%s', (_, rule, line) => {
    expect(blocks([{ ...times, ...rule }])).toEqual({ lines: [line], excludeRules: [] });
  });

  it('maps excluded dates and rules', () => {
    const rules = [{ ...times, type: 'weekly', between: 1, limit_type: 'never', days: [1] }];
    const exclusions = [
      { ...times, type: 'single', start_date: '2027-03-22' },
      { ...times, type: 'monthly', between: 1, limit_type: 'count', limit: 2, day: 1, week: 'first' },
    ];
    expect(blocks(rules, exclusions)).toEqual({
      lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO', `EXDATE;${V}:20270322T190000`],
      excludeRules: ['RRULE:FREQ=MONTHLY;BYDAY=1MO;COUNT=2'],
    });
  });

  it('refuses occurrences at another time or of another length, and text that is not JSON', () => {
    expect(blocks([{ ...times, type: 'daily', between: 1, limit_type: 'never', start_time: '10:00:00' }])).toEqual({
      unsupported: expect.stringMatching(/start at 10:00 and last 660 minutes/),
    });
    // Ending the next day: 26 hours, not the event's 2.
    expect(blocks([{ ...times, type: 'daily', between: 1, limit_type: 'never', multi_day: true, multi_day_span: 'next_day' }])).toEqual({
      unsupported: expect.stringMatching(/last 1560 minutes/),
    });
    expect(proBlocksRecurrenceToRfc5545('[{', undefined, event)).toEqual({ unsupported: "the block editor's recurrence meta is not JSON" });
    expect(proBlocksRecurrenceToRfc5545('[]', '', event)).toEqual({ lines: [], excludeRules: [] });
  });
});
