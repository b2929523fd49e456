// Expanding a series: wall times kept across daylight-saving changes (and RFC 5545's reading of
// the times a change skips or repeats), invalid dates skipped, RDATE and EXDATE in any form,
// COUNT, UNTIL, the horizon, the occurrence limit, windows, and the time it takes.
import { describe, expect, it } from 'vitest';
import { expandSeries, occurrencesBetween } from '#lib/domain/recurrence/expand.js';
import { errorOf, occurrencesOf, seriesOf } from '../support/recurrence.js';

const NY = 'America/New_York';
const VILNIUS = 'Europe/Vilnius';
const NOW = new Date('2027-01-01T00:00:00Z');

function expand(lines: string[], start: string, tz: string, opts: { allDay?: boolean; now?: Date; horizonMonths?: number; maxOccurrences?: number } = {}) {
  return expandSeries(seriesOf(lines, start, tz, opts.allDay), { now: opts.now ?? NOW, horizonMonths: opts.horizonMonths, maxOccurrences: opts.maxOccurrences });
}
const pairs = (lines: string[], start: string, tz: string, opts = {}) => occurrencesOf(expand(lines, start, tz, opts)).map((o) => `${o.start} = ${o.utc}Z`);
const starts = (lines: string[], start: string, tz: string, opts = {}) => occurrencesOf(expand(lines, start, tz, opts)).map((o) => o.start);

describe('daylight saving', () => {
  it('keeps a weekly 19:00 in Vilnius at 19:00 in winter and summer', () => {
    const occurrences = occurrencesOf(expand(['RRULE:FREQ=WEEKLY;COUNT=30'], '2027-01-05 19:00:00', VILNIUS));
    expect(occurrences).toHaveLength(30);
    expect(occurrences.every((o) => o.start.endsWith(' 19:00:00'))).toBe(true);
    expect(occurrences[0]).toEqual({ start: '2027-01-05 19:00:00', utc: '2027-01-05 17:00:00' });
    expect(occurrences.find((o) => o.start.startsWith('2027-07-06'))).toEqual({ start: '2027-07-06 19:00:00', utc: '2027-07-06 16:00:00' });
  });

  it('moves a New York time the spring change skips forward by the gap, and keeps the wall time on other days', () => {
    expect(pairs(['RRULE:FREQ=DAILY;COUNT=4'], '2027-03-12 02:30:00', NY)).toEqual([
      '2027-03-12 02:30:00 = 2027-03-12 07:30:00Z',
      '2027-03-13 02:30:00 = 2027-03-13 07:30:00Z',
      '2027-03-14 03:30:00 = 2027-03-14 07:30:00Z',
      '2027-03-15 02:30:00 = 2027-03-15 06:30:00Z',
    ]);
  });

  it('takes the first of the two New York 01:30s on the autumn change', () => {
    expect(pairs(['RRULE:FREQ=DAILY;COUNT=3'], '2027-11-06 01:30:00', NY)).toEqual([
      '2027-11-06 01:30:00 = 2027-11-06 05:30:00Z',
      '2027-11-07 01:30:00 = 2027-11-07 05:30:00Z',
      '2027-11-08 01:30:00 = 2027-11-08 06:30:00Z',
    ]);
  });

  it('does the same east of UTC: Vilnius 03:30 skipped in March, shown twice in October', () => {
    expect(pairs(['RRULE:FREQ=DAILY;COUNT=2'], '2027-03-27 03:30:00', VILNIUS)).toEqual([
      '2027-03-27 03:30:00 = 2027-03-27 01:30:00Z',
      '2027-03-28 04:30:00 = 2027-03-28 01:30:00Z',
    ]);
    expect(pairs(['RRULE:FREQ=DAILY;COUNT=2'], '2027-10-30 03:30:00', VILNIUS)).toEqual([
      '2027-10-30 03:30:00 = 2027-10-30 00:30:00Z',
      '2027-10-31 03:30:00 = 2027-10-31 00:30:00Z',
    ]);
  });

  it('answers UTC at a fixed offset', () => {
    expect(pairs(['RRULE:FREQ=MONTHLY;COUNT=2'], '2027-01-01 10:00:00', 'UTC+3:30')).toEqual([
      '2027-01-01 10:00:00 = 2027-01-01 06:30:00Z',
      '2027-02-01 10:00:00 = 2027-02-01 06:30:00Z',
    ]);
  });
});

describe('invalid dates and counting from the end', () => {
  it('repeats February 29th only in leap years', () => {
    expect(starts(['RRULE:FREQ=YEARLY;COUNT=4'], '2024-02-29 10:00:00', NY)).toEqual(['2024-02-29 10:00:00', '2028-02-29 10:00:00', '2032-02-29 10:00:00', '2036-02-29 10:00:00']);
  });

  it('skips the months without a 31st, and BYMONTHDAY=-1 is every last day', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;COUNT=4'], '2027-01-31 10:00:00', NY)).toEqual(['2027-01-31 10:00:00', '2027-03-31 10:00:00', '2027-05-31 10:00:00', '2027-07-31 10:00:00']);
    expect(starts(['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=15'], '2027-01-31 10:00:00', NY).map((s) => s.slice(0, 10))).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
      '2027-08-31',
      '2027-09-30',
      '2027-10-31',
      '2027-11-30',
      '2027-12-31',
      '2028-01-31',
      '2028-02-29',
      '2028-03-31',
    ]);
  });

  it('counts DTSTART as the first occurrence even when the rule would not give it', () => {
    expect(starts(['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3'], '2027-01-05 10:00:00', NY)).toEqual(['2027-01-05 10:00:00', '2027-01-11 10:00:00', '2027-01-18 10:00:00']);
  });
});

describe('RDATE and EXDATE', () => {
  const daily = ['RRULE:FREQ=DAILY;COUNT=6'];
  const start = '1997-09-02 09:00:00';

  it('removes occurrences named in the zone, in another zone or in UTC, by instant', () => {
    const got = starts(
      [...daily, 'EXDATE;TZID=Europe/Vilnius:19970903T160000', 'EXDATE:19970904T130000Z', 'EXDATE;TZID=America/New_York:19970905T090000,19970906T100000'],
      start,
      NY,
    );
    expect(got).toEqual(['1997-09-02 09:00:00', '1997-09-06 09:00:00', '1997-09-07 09:00:00']);
  });

  it('adds RDATEs at their instant, in order, once', () => {
    const got = pairs([...daily, 'RDATE:19970910T170000Z', 'RDATE;TZID=Europe/Vilnius:19970904T160000,19970901T120000'], start, NY);
    expect(got).toEqual([
      '1997-09-01 05:00:00 = 1997-09-01 09:00:00Z',
      '1997-09-02 09:00:00 = 1997-09-02 13:00:00Z',
      '1997-09-03 09:00:00 = 1997-09-03 13:00:00Z',
      '1997-09-04 09:00:00 = 1997-09-04 13:00:00Z',
      '1997-09-05 09:00:00 = 1997-09-05 13:00:00Z',
      '1997-09-06 09:00:00 = 1997-09-06 13:00:00Z',
      '1997-09-07 09:00:00 = 1997-09-07 13:00:00Z',
      '1997-09-10 13:00:00 = 1997-09-10 17:00:00Z',
    ]);
  });

  it('makes a series of RDATEs alone, and lets an EXDATE remove an RDATE', () => {
    expect(starts(['RDATE:19970910T090000,19970912T090000', 'EXDATE:19970912T130000Z'], start, NY)).toEqual(['1997-09-02 09:00:00', '1997-09-10 09:00:00']);
  });

  it('removes every occurrence of a date EXDATE in a timed series', () => {
    expect(starts(['RRULE:FREQ=DAILY;BYHOUR=9,18;COUNT=6', 'EXDATE;VALUE=DATE:19970903'], start, NY)).toEqual([
      '1997-09-02 09:00:00',
      '1997-09-02 18:00:00',
      '1997-09-04 09:00:00',
      '1997-09-04 18:00:00',
    ]);
  });

  it('works on dates in an all-day series', () => {
    const opts = { allDay: true };
    expect(starts(['RRULE:FREQ=DAILY;COUNT=5', 'EXDATE;VALUE=DATE:20270103', 'RDATE;VALUE=DATE:20270110'], '2027-01-01 00:00:00', NY, opts)).toEqual([
      '2027-01-01 00:00:00',
      '2027-01-02 00:00:00',
      '2027-01-04 00:00:00',
      '2027-01-05 00:00:00',
      '2027-01-10 00:00:00',
    ]);
    expect(starts(['RRULE:FREQ=WEEKLY;UNTIL=20270115'], '2027-01-01 00:00:00', NY, opts)).toEqual(['2027-01-01 00:00:00', '2027-01-08 00:00:00', '2027-01-15 00:00:00']);
    expect(occurrencesOf(expand(['RRULE:FREQ=DAILY;COUNT=1'], '2027-07-01 00:00:00', VILNIUS, opts))).toEqual([{ start: '2027-07-01 00:00:00', utc: '2027-06-30 21:00:00' }]);
  });

  it('joins several RRULEs without repeating a time', () => {
    expect(starts(['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3', 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4'], start, NY).map((s) => s.slice(0, 10))).toEqual([
      '1997-09-02',
      '1997-09-04',
      '1997-09-09',
      '1997-09-11',
      '1997-09-16',
    ]);
  });
});

describe('COUNT, UNTIL, the horizon and the limit', () => {
  it('includes an occurrence at UNTIL, in UTC or in local time', () => {
    expect(starts(['RRULE:FREQ=DAILY;UNTIL=19970905T130000Z'], '1997-09-02 09:00:00', NY)).toHaveLength(4);
    expect(starts(['RRULE:FREQ=DAILY;UNTIL=19970905T125959Z'], '1997-09-02 09:00:00', NY)).toHaveLength(3);
    expect(starts(['RRULE:FREQ=DAILY;UNTIL=19970905T090000'], '1997-09-02 09:00:00', NY)).toHaveLength(4);
  });

  it('expands rules with COUNT or UNTIL whole, wherever their dates fall', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    expect(starts(['RRULE:FREQ=WEEKLY;COUNT=100'], '2020-01-06 10:00:00', NY, { now, horizonMonths: 1 })).toHaveLength(100);
    const long = starts(['RRULE:FREQ=MONTHLY;UNTIL=23000101T000000Z'], '2020-01-06 10:00:00', NY, { now, horizonMonths: 1 });
    expect(long).toHaveLength(280 * 12);
    expect(long.at(-1)).toBe('2299-12-06 10:00:00');
  });

  it('follows a rule without either up to the horizon after now, 60 months unless told', () => {
    const weekly = ['RRULE:FREQ=WEEKLY'];
    // Now is 2026-12-31 19:00 in New York.
    expect(starts(weekly, '2027-01-04 09:00:00', NY, { horizonMonths: 12 }).at(-1)).toBe('2027-12-27 09:00:00');
    const fiveYears = starts(weekly, '2027-01-04 09:00:00', NY);
    expect(fiveYears.at(-1)).toBe('2031-12-29 09:00:00');
    expect(fiveYears).toHaveLength(261);
    // A series that starts past the horizon still has its first occurrence.
    expect(starts(weekly, '2040-01-02 09:00:00', NY)).toEqual(['2040-01-02 09:00:00']);
  });

  it('answers an error past maxOccurrences, counting what EXDATE removes', () => {
    expect(starts(['RRULE:FREQ=DAILY;COUNT=5000'], '2027-01-01 09:00:00', NY)).toHaveLength(5000);
    expect(errorOf(expand(['RRULE:FREQ=DAILY;COUNT=5001'], '2027-01-01 09:00:00', NY))).toEqual({ line: 0, message: 'recurrence[0]: the series has more than 5000 occurrences' });
    expect(errorOf(expand(['RDATE:20270101T100000Z', 'RRULE:FREQ=DAILY'], '2027-01-01 09:00:00', NY, { maxOccurrences: 100 }))).toEqual({
      line: 1,
      message: 'recurrence[1]: the series has more than 100 occurrences in the next 60 months',
    });
    expect(starts(['RRULE:FREQ=DAILY;COUNT=102', 'EXDATE:20270102T140000Z,20270103T140000Z'], '2027-01-01 09:00:00', NY, { maxOccurrences: 100 })).toHaveLength(100);
    expect(errorOf(expand(['RRULE:FREQ=DAILY;COUNT=100', 'RDATE:20300101T140000Z'], '2027-01-01 09:00:00', NY, { maxOccurrences: 100 }))).toEqual({
      line: -1,
      message: 'recurrence: the series has more than 100 occurrences',
    });
  });

  it('stops a rule that can never match, and refuses one that matches too rarely to look for', () => {
    expect(starts(['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=3'], '2027-01-01 09:00:00', NY)).toEqual(['2027-01-01 09:00:00']);
    expect(starts(['RRULE:FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31;COUNT=3'], '2027-01-01 09:00:00', NY)).toEqual(['2027-01-01 09:00:00']);
    expect(starts(['RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29;COUNT=2'], '2027-02-28 09:00:00', NY)).toEqual(['2027-02-28 09:00:00']);
    expect(errorOf(expand(['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;UNTIL=99991231T000000Z'], '2027-01-01 09:00:00', NY))).toEqual({
      line: 0,
      message: 'recurrence[0]: the rule matches too rarely to list (it looks through more than 500000 days)',
    });
  });
});

describe('occurrencesBetween', () => {
  it('answers a window far from the start of an endless series', () => {
    const series = seriesOf(['RRULE:FREQ=DAILY;INTERVAL=3', 'EXDATE;TZID=America/New_York:20300104T090000'], '1990-01-01 09:00:00', NY);
    expect(occurrencesOf(occurrencesBetween(series, '2030-01-01 00:00:00', '2030-01-10 09:00:00')).map((o) => o.start)).toEqual([
      '2030-01-01 09:00:00',
      '2030-01-07 09:00:00',
      '2030-01-10 09:00:00',
    ]);
  });

  it('counts COUNT from DTSTART, and keeps RDATEs to the window', () => {
    const series = seriesOf(['RRULE:FREQ=WEEKLY;COUNT=10', 'RDATE:20270301T100000Z'], '2027-01-04 09:00:00', NY);
    expect(occurrencesOf(occurrencesBetween(series, '2027-02-20 00:00:00', '2027-12-31 00:00:00')).map((o) => o.start)).toEqual([
      '2027-02-22 09:00:00',
      '2027-03-01 05:00:00',
      '2027-03-01 09:00:00',
      '2027-03-08 09:00:00',
    ]);
  });

  it('answers an error past maxOccurrences in the window', () => {
    const series = seriesOf(['RRULE:FREQ=DAILY'], '2027-01-01 09:00:00', NY);
    expect(occurrencesOf(occurrencesBetween(series, '2027-01-01 00:00:00', '2027-01-10 23:59:59', { maxOccurrences: 10 }))).toHaveLength(10);
    expect(errorOf(occurrencesBetween(series, '2027-01-01 00:00:00', '2027-01-11 23:59:59', { maxOccurrences: 10 }))).toEqual({
      line: 0,
      message: 'recurrence[0]: the series has more than 10 occurrences in the dates asked for',
    });
    const counted = seriesOf(['RRULE:FREQ=DAILY;COUNT=9', 'RDATE:20270101T150000Z,20270101T160000Z'], '2027-01-01 09:00:00', NY);
    expect(errorOf(occurrencesBetween(counted, '2027-01-01 00:00:00', '2027-01-11 23:59:59', { maxOccurrences: 10 }))).toEqual({
      line: -1,
      message: 'recurrence: the series has more than 10 occurrences in the dates asked for',
    });
    // A COUNT rule's occurrences before the window count for COUNT only.
    const long = seriesOf(['RRULE:FREQ=DAILY;COUNT=20000'], '2000-01-01 09:00:00', NY);
    expect(occurrencesOf(occurrencesBetween(long, '2054-10-01 00:00:00', '2054-12-31 00:00:00', { maxOccurrences: 10 })).map((o) => o.start)).toEqual([
      '2054-10-01 09:00:00',
      '2054-10-02 09:00:00',
      '2054-10-03 09:00:00',
    ]);
  });
});

describe('cost bounds', () => {
  it('expands a daily rule over five years whole (1,826 occurrences)', () => {
    const series = seriesOf(['RRULE:FREQ=DAILY'], '2027-01-01 19:00:00', VILNIUS);
    const all = occurrencesOf(expandSeries(series, { now: NOW }));
    expect(all).toHaveLength(1826);
    expect(all.every((o) => o.start.endsWith(' 19:00:00'))).toBe(true);
  });

  it('keeps hostile series within a budget of days looked through', () => {
    const lines = Array.from({ length: 100 }, () => 'RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;BYDAY=MO;COUNT=5000');
    // Each rule alone gives DTSTART only; together they pass the series' budget of days to look through.
    expect(starts(lines.slice(0, 10), '2027-01-01 09:00:00', NY)).toEqual(['2027-01-01 09:00:00']);
    const error = errorOf(expand(lines, '2027-01-01 09:00:00', NY));
    expect(error.line).toBeGreaterThan(10);
    expect(error.message).toBe(`recurrence[${error.line}]: the rule matches too rarely to list (it looks through more than 500000 days)`);
    expect(errorOf(expand(Array(100).fill('RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;UNTIL=99991231T000000Z'), '2027-01-01 09:00:00', NY)).line).toBe(0);
  });
});
