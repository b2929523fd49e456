// Reading a `recurrence` field: every message that says which line is wrong and why, the limits
// that keep hostile input cheap, the forms accepted, and the lines written back.
import { describe, expect, it } from 'vitest';
import { expandSeries } from '#lib/domain/recurrence/expand.js';
import { recurrenceLines } from '#lib/domain/recurrence/lines.js';
import { MAX_LINE_LENGTH, MAX_LINES, parseRecurrence } from '#lib/domain/recurrence/parse.js';
import { occurrencesOf, seriesOf } from '../support/recurrence.js';

const NY = 'America/New_York';
const START = '1997-09-02 09:00:00';

/** The error for `lines` in a timed (or all-day) series that starts at START in New York. */
function errorFor(lines: unknown, allDay = false): { line: number; message: string } {
  const parsed = parseRecurrence(lines, allDay ? '1997-09-02 00:00:00' : START, NY, allDay);
  if (parsed.ok) throw new Error(`expected an error for ${JSON.stringify(lines)}`);
  return parsed.error;
}

/** The message for a single line, without its `recurrence[0]: ` prefix. */
const messageFor = (line: string, allDay = false) => errorFor([line], allDay).message.replace(/^recurrence\[0\]: /, '');

describe('the field and its lines', () => {
  it('refuses anything but an array', () => {
    for (const value of ['RRULE:FREQ=DAILY', undefined, null, { 0: 'RRULE:FREQ=DAILY' }, 7]) {
      expect(errorFor(value)).toEqual({ line: -1, message: 'recurrence must be an array of RFC 5545 lines (RRULE, RDATE or EXDATE)' });
    }
  });

  it(`refuses more than ${MAX_LINES} lines, and lines longer than ${MAX_LINE_LENGTH} characters`, () => {
    expect(MAX_LINES).toBe(100);
    expect(MAX_LINE_LENGTH).toBe(1000);
    expect(errorFor(Array(101).fill('RDATE:19970903T090000Z'))).toEqual({ line: 100, message: 'recurrence has 101 lines; at most 100 are allowed' });
    expect(parseRecurrence(Array(100).fill('RDATE:19970903T090000Z'), START, NY).ok).toBe(true);
    const long = `RDATE:${Array(63).fill('19970903T090000Z').join(',')}`;
    expect(long.length).toBeGreaterThan(1000);
    expect(errorFor(['RRULE:FREQ=DAILY', long])).toEqual({ line: 1, message: 'recurrence[1] is longer than 1000 characters' });
    const fits = `RDATE:${Array(58).fill('19970903T090000Z').join(',')}${' '.repeat(9)}`;
    expect(fits.length).toBe(1000);
    expect(parseRecurrence([fits], START, NY).ok).toBe(true);
  });

  it('says which item is not a line', () => {
    expect(errorFor(['RRULE:FREQ=DAILY', 42])).toEqual({ line: 1, message: 'recurrence[1] must be a string' });
    expect(errorFor(['  '])).toEqual({ line: 0, message: 'recurrence[0] is empty' });
    expect(errorFor(['RRULE:FREQ=DAILY\r\nRDATE:19970903T090000Z'])).toEqual({ line: 0, message: 'recurrence[0] contains a line break: give one content line per item' });
  });

  it('needs an RRULE or an RDATE', () => {
    expect(errorFor([])).toEqual({ line: -1, message: 'recurrence needs an RRULE or RDATE line' });
    expect(errorFor(['EXDATE:19970903T130000Z'])).toEqual({ line: -1, message: 'recurrence needs an RRULE or RDATE line' });
  });

  it.each([
    ['X-FOO:bar', 'unknown property X-FOO (a recurrence line is an RRULE, RDATE or EXDATE)'],
    ['SUMMARY:Meeting', 'unknown property SUMMARY (a recurrence line is an RRULE, RDATE or EXDATE)'],
    ['EXRULE:FREQ=DAILY', 'EXRULE is not supported (RFC 5545 removed it): use EXDATE'],
    ['DTSTART:19970902T090000Z', "DTSTART is not a recurrence line: the event's start date is the series' first occurrence"],
    [':FREQ=DAILY', 'a line must start with a property name such as RRULE'],
    ['RRULE FREQ=DAILY', 'RRULE must be followed by ":" and its value'],
    ['RRULE;X-A=1:FREQ=DAILY', 'RRULE takes no parameters (X-A)'],
    ['RDATE;TZID:19970903T090000', 'a parameter must be written NAME=value'],
    ['RDATE;TZID="America/New_York:19970903T090000', 'a quoted parameter value has no closing quote'],
  ])('%s: %s', (line, message) => {
    expect(messageFor(line)).toBe(message);
  });

  it('names the line at fault with its index', () => {
    expect(errorFor(['RRULE:FREQ=DAILY', 'RRULE:INTERVAL=2'])).toEqual({ line: 1, message: 'recurrence[1]: FREQ is required' });
  });

  it('throws for a start or zone the caller should have checked', () => {
    expect(() => parseRecurrence(['RRULE:FREQ=DAILY'], '1997-09-31 09:00:00', NY)).toThrow(RangeError);
    expect(() => parseRecurrence(['RRULE:FREQ=DAILY'], START, 'Mars/Base')).toThrow(RangeError);
  });
});

describe('RRULE', () => {
  it.each([
    ['RRULE:', 'RRULE needs a value such as FREQ=WEEKLY'],
    ['RRULE:COUNT=2', 'FREQ is required'],
    ['RRULE:FREQ=SECONDLY', 'FREQ=SECONDLY is not supported: events repeat at most daily'],
    ['RRULE:FREQ=MINUTELY', 'FREQ=MINUTELY is not supported: events repeat at most daily'],
    ['RRULE:FREQ=HOURLY;COUNT=3', 'FREQ=HOURLY is not supported: events repeat at most daily'],
    ['RRULE:FREQ=FORTNIGHTLY', 'FREQ=FORTNIGHTLY is not a frequency (DAILY, WEEKLY, MONTHLY or YEARLY)'],
    ['RRULE:FREQ=DAILY;FREQ=WEEKLY', 'FREQ is given twice'],
    ['RRULE:FREQ=DAILY;;COUNT=2', 'empty rule part (a stray ";")'],
    ['RRULE:FREQ=DAILY;', 'empty rule part (a stray ";")'],
    ['RRULE:FREQ=DAILY;X-FOO=1', 'X-FOO is not an RRULE part'],
    ['RRULE:FREQ=DAILY;COUNT', 'COUNT needs a value (COUNT=…)'],
    ['RRULE:FREQ=DAILY;COUNT=', 'COUNT needs a value (COUNT=…)'],
    ['RRULE:FREQ=DAILY;INTERVAL=0', 'INTERVAL must be a whole number from 1, got 0'],
    ['RRULE:FREQ=DAILY;INTERVAL=-2', 'INTERVAL must be a whole number from 1, got -2'],
    ['RRULE:FREQ=DAILY;COUNT=1.5', 'COUNT must be a whole number from 1, got 1.5'],
    ['RRULE:FREQ=DAILY;COUNT=3;UNTIL=19971224T000000Z', 'COUNT and UNTIL cannot both be given'],
    ['RRULE:FREQ=DAILY;UNTIL=1997-12-24', 'UNTIL=1997-12-24 is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSSZ)'],
    ['RRULE:FREQ=DAILY;UNTIL=19970230T000000Z', 'UNTIL=19970230T000000Z is not a valid date'],
    ['RRULE:FREQ=DAILY;UNTIL=19971224T250000Z', 'UNTIL=19971224T250000Z is not a valid time'],
    ['RRULE:FREQ=DAILY;UNTIL=19971224', 'UNTIL must be a date-time when DTSTART is a date-time (the event is not all-day)'],
    ['RRULE:FREQ=WEEKLY;BYDAY=XX', 'BYDAY=XX is not a week day (MO, TU, WE, TH, FR, SA or SU, optionally after an ordinal such as 1MO or -1FR)'],
    ['RRULE:FREQ=WEEKLY;BYDAY=MO,', 'BYDAY= is not a week day (MO, TU, WE, TH, FR, SA or SU, optionally after an ordinal such as 1MO or -1FR)'],
    ['RRULE:FREQ=MONTHLY;BYDAY=0MO', 'BYDAY=0MO: the ordinal must be from 1 to 53 or -53 to -1'],
    ['RRULE:FREQ=YEARLY;BYDAY=-54FR', 'BYDAY=-54FR: the ordinal must be from 1 to 53 or -53 to -1'],
    ['RRULE:FREQ=MONTHLY;BYMONTHDAY=32', 'BYMONTHDAY=32 is out of range (1 to 31 or -31 to -1)'],
    ['RRULE:FREQ=MONTHLY;BYMONTHDAY=0', 'BYMONTHDAY=0 is out of range (1 to 31 or -31 to -1)'],
    ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-32', 'BYMONTHDAY=-32 is out of range (1 to 31 or -31 to -1)'],
    ['RRULE:FREQ=MONTHLY;BYMONTHDAY=first', 'BYMONTHDAY=FIRST is not a whole number'],
    ['RRULE:FREQ=YEARLY;BYMONTH=13', 'BYMONTH=13 is out of range (1 to 12)'],
    ['RRULE:FREQ=YEARLY;BYMONTH=-1', 'BYMONTH=-1 is out of range (1 to 12)'],
    ['RRULE:FREQ=DAILY;BYHOUR=24', 'BYHOUR=24 is out of range (0 to 23)'],
    ['RRULE:FREQ=DAILY;BYMINUTE=60', 'BYMINUTE=60 is out of range (0 to 59)'],
    ['RRULE:FREQ=DAILY;BYSECOND=60', 'BYSECOND=60 (a leap second) is not supported'],
    ['RRULE:FREQ=DAILY;BYSECOND=61', 'BYSECOND=61 is out of range (0 to 59)'],
    ['RRULE:FREQ=YEARLY;BYYEARDAY=367', 'BYYEARDAY=367 is out of range (1 to 366 or -366 to -1)'],
    ['RRULE:FREQ=YEARLY;BYWEEKNO=54', 'BYWEEKNO=54 is out of range (1 to 53 or -53 to -1)'],
    ['RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0', 'BYSETPOS=0 is out of range (1 to 366 or -366 to -1)'],
    ['RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-367', 'BYSETPOS=-367 is out of range (1 to 366 or -366 to -1)'],
    ['RRULE:FREQ=WEEKLY;WKST=XX', 'WKST=XX is not a week day (MO, TU, WE, TH, FR, SA or SU)'],
    ['RRULE:FREQ=WEEKLY;BYDAY=1MO', 'BYDAY with an ordinal (such as 1MO) needs FREQ=MONTHLY or FREQ=YEARLY, not FREQ=WEEKLY'],
    ['RRULE:FREQ=DAILY;BYDAY=-1FR', 'BYDAY with an ordinal (such as 1MO) needs FREQ=MONTHLY or FREQ=YEARLY, not FREQ=DAILY'],
    ['RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=1MO', 'BYDAY with an ordinal (such as 1MO) cannot be combined with BYWEEKNO'],
    ['RRULE:FREQ=MONTHLY;BYWEEKNO=1', 'BYWEEKNO needs FREQ=YEARLY, not FREQ=MONTHLY'],
    ['RRULE:FREQ=MONTHLY;BYYEARDAY=1', 'BYYEARDAY needs FREQ=YEARLY, not FREQ=MONTHLY'],
    ['RRULE:FREQ=DAILY;BYYEARDAY=1', 'BYYEARDAY needs FREQ=YEARLY, not FREQ=DAILY'],
    ['RRULE:FREQ=WEEKLY;BYMONTHDAY=1', 'BYMONTHDAY cannot be used with FREQ=WEEKLY'],
    ['RRULE:FREQ=DAILY;BYSETPOS=1', 'BYSETPOS needs another BY rule part (BYDAY, BYMONTHDAY, …) to choose from'],
  ])('%s: %s', (line, message) => {
    expect(messageFor(line)).toBe(message);
  });

  it.each([
    ['RRULE:FREQ=DAILY;UNTIL=19971224T000000Z', 'UNTIL must be a date when DTSTART is a date (an all-day event)'],
    ['RRULE:FREQ=DAILY;UNTIL=19971224T000000', 'UNTIL must be a date when DTSTART is a date (an all-day event)'],
    ['RRULE:FREQ=DAILY;BYHOUR=9', 'BYHOUR cannot be used when DTSTART is a date (an all-day event)'],
    ['RRULE:FREQ=DAILY;BYMINUTE=30', 'BYMINUTE cannot be used when DTSTART is a date (an all-day event)'],
    ['RRULE:FREQ=DAILY;BYSECOND=1', 'BYSECOND cannot be used when DTSTART is a date (an all-day event)'],
  ])('all-day: %s: %s', (line, message) => {
    expect(messageFor(line, true)).toBe(message);
  });

  it('reads names and values in any case, and RFC 5545 combinations it allows', () => {
    for (const line of [
      'rrule:freq=weekly;byday=mo,we;wkst=su',
      'RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO',
      'RRULE:FREQ=YEARLY;BYYEARDAY=-1;BYMONTH=12',
      'RRULE:FREQ=MONTHLY;BYDAY=+2TU',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
      'RRULE:FREQ=DAILY;BYMONTH=1;BYMONTHDAY=1,-1;BYDAY=MO',
      'RRULE:FREQ=WEEKLY;BYHOUR=9;BYSETPOS=1',
    ]) {
      expect(parseRecurrence([line], START, NY).ok, line).toBe(true);
    }
  });
});

describe('RDATE and EXDATE', () => {
  it.each([
    ['RDATE;VALUE=PERIOD:19960403T020000Z/19960403T040000Z', 'RDATE;VALUE=PERIOD is not supported: give the start of each added occurrence'],
    ['RDATE;VALUE=TEXT:tomorrow', 'VALUE=TEXT is not a value type RDATE takes (DATE-TIME or DATE)'],
    ['EXDATE;VALUE=PERIOD:19960403T020000Z/PT1H', 'VALUE=PERIOD is not a value type EXDATE takes (DATE-TIME or DATE)'],
    ['RDATE;TZID=Mars/Base:19970903T090000', 'TZID=Mars/Base is not a known time zone'],
    ['RDATE;TZID=America/New_York:19970903T090000Z', 'RDATE value 19970903T090000Z is in UTC (it ends in Z) and cannot have a TZID'],
    ['EXDATE;VALUE=DATE;TZID=America/New_York:19970903', 'TZID cannot be used with EXDATE;VALUE=DATE'],
    ['EXDATE;X-FOO=1:19970903T090000Z', 'unknown parameter X-FOO on EXDATE (it takes VALUE and TZID)'],
    ['EXDATE;TZID=America/New_York,Europe/Vilnius:19970903T090000', 'TZID on EXDATE takes one value'],
    ['EXDATE;TZID=America/New_York;TZID=Europe/Vilnius:19970903T090000', 'TZID is given twice'],
    ['RDATE:19970903', 'RDATE value 19970903 is a date: write RDATE;VALUE=DATE:19970903, or give a time (YYYYMMDDTHHMMSS)'],
    ['RDATE:19970903T090000Z,tomorrow', 'RDATE value TOMORROW is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS)'],
    ['EXDATE:19970230T090000Z', 'EXDATE value 19970230T090000Z is not a valid date'],
    ['EXDATE:19970903T236000Z', 'EXDATE value 19970903T236000Z is not a valid time'],
    ['RDATE;VALUE=DATE:19970903', 'RDATE must be a date-time when DTSTART is a date-time (the event is not all-day)'],
    ['RDATE:', 'RDATE needs a value'],
  ])('%s: %s', (line, message) => {
    expect(messageFor(line)).toBe(message);
  });

  it.each([
    ['EXDATE:19970903T090000Z', 'EXDATE must be a date (EXDATE;VALUE=DATE:YYYYMMDD) when DTSTART is a date (an all-day event)'],
    ['RDATE;TZID=America/New_York:19970903T090000', 'RDATE must be a date (RDATE;VALUE=DATE:YYYYMMDD) when DTSTART is a date (an all-day event)'],
    ['RDATE;VALUE=DATE:19970903T090000', 'RDATE value 19970903T090000 is not a date (YYYYMMDD), as VALUE=DATE says'],
  ])('all-day: %s: %s', (line, message) => {
    expect(messageFor(line, true)).toBe(message);
  });

  it('reads quoted and fixed-offset TZIDs, and a date EXDATE in a timed series', () => {
    for (const line of ['RDATE;TZID="America/New_York":19970903T090000', 'RDATE;TZID="UTC+3:30":19970903T090000', 'RDATE;tzid=europe/vilnius:19970903T090000']) {
      expect(parseRecurrence([line], START, NY).ok, line).toBe(true);
    }
    expect(parseRecurrence(['RRULE:FREQ=DAILY', 'EXDATE;VALUE=DATE:19970903'], START, NY).ok).toBe(true);
  });
});

describe('recurrenceLines', () => {
  it("writes an RRULE's parts upper case in RFC 5545's order, once each, without the default INTERVAL", () => {
    expect(recurrenceLines(seriesOf(['rrule:wkst=su;byday=tu,th,TU;interval=1;count=10;freq=weekly'], START, NY))).toEqual(['RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=TU,TH;WKST=SU']);
    expect(
      recurrenceLines(seriesOf(['RRULE:BYSETPOS=-1;BYMONTH=1,2;BYWEEKNO=1;BYYEARDAY=5;BYMONTHDAY=3;BYDAY=MO;BYHOUR=9;BYMINUTE=1;BYSECOND=2;INTERVAL=3;FREQ=YEARLY'], START, NY)),
    ).toEqual(['RRULE:FREQ=YEARLY;INTERVAL=3;BYSECOND=2;BYMINUTE=1;BYHOUR=9;BYDAY=MO;BYMONTHDAY=3;BYYEARDAY=5;BYWEEKNO=1;BYMONTH=1,2;BYSETPOS=-1']);
    expect(recurrenceLines(seriesOf(['RRULE:FREQ=MONTHLY;BYDAY=+1FR,-1SU'], START, NY))).toEqual(['RRULE:FREQ=MONTHLY;BYDAY=1FR,-1SU']);
  });

  it('writes UNTIL in UTC for a timed series (a local UNTIL read in its zone) and as a date for an all-day one', () => {
    expect(recurrenceLines(seriesOf(['RRULE:FREQ=DAILY;UNTIL=19971224T000000'], START, NY))).toEqual(['RRULE:FREQ=DAILY;UNTIL=19971224T050000Z']);
    expect(recurrenceLines(seriesOf(['RRULE:FREQ=DAILY;UNTIL=19970724T000000'], START, NY))).toEqual(['RRULE:FREQ=DAILY;UNTIL=19970724T040000Z']);
    expect(recurrenceLines(seriesOf(['RRULE:UNTIL=19971224;FREQ=DAILY'], '1997-09-02 00:00:00', NY, true))).toEqual(['RRULE:FREQ=DAILY;UNTIL=19971224']);
  });

  it('groups RDATEs and EXDATEs by form, sorted, in the zone of the event or else in UTC', () => {
    const series = seriesOf(
      [
        'EXDATE:19970904T130000Z',
        'RDATE;TZID=Europe/Vilnius:19970910T160000',
        'EXDATE;TZID=America/New_York:19970903T090000,19970902T090000',
        'RRULE:FREQ=DAILY;COUNT=5',
        'RDATE:19970911T090000',
        'EXDATE;VALUE=DATE:19970906',
      ],
      START,
      NY,
    );
    expect(recurrenceLines(series)).toEqual([
      'RRULE:FREQ=DAILY;COUNT=5',
      'RDATE;TZID=America/New_York:19970911T090000',
      'RDATE:19970910T130000Z',
      'EXDATE;VALUE=DATE:19970906',
      'EXDATE;TZID=America/New_York:19970902T090000,19970903T090000',
      'EXDATE:19970904T130000Z',
    ]);
  });

  it('writes in UTC a wall time the zone skips or shows twice, and quotes a TZID that holds a colon', () => {
    expect(recurrenceLines(seriesOf(['RDATE:20270314T023000,20271107T013000,20271107T033000'], START, NY))).toEqual([
      'RDATE;TZID=America/New_York:20271107T033000',
      'RDATE:20270314T073000Z,20271107T053000Z',
    ]);
    expect(recurrenceLines(seriesOf(['RDATE:20270101T100000'], '2027-01-01 09:00:00', 'UTC+3:30'))).toEqual(['RDATE;TZID="UTC+3:30":20270101T100000']);
  });

  it('splits the dates of a form over as many lines as keep each within the length a line may have', () => {
    // 99 lines of one EXDATE each are 99 dates of one form: a single line of them would be refused when read back.
    const days = Array.from({ length: 99 }, (_, i) => new Date(Date.UTC(1997, 8, 3 + i)).toISOString().slice(0, 10).replaceAll('-', ''));
    const given = ['RRULE:FREQ=DAILY;COUNT=200', ...days.map((d) => `EXDATE;TZID=America/New_York:${d}T090000`)];
    const lines = recurrenceLines(seriesOf(given, START, NY));
    expect(lines.length).toBe(3);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(MAX_LINE_LENGTH);
    const now = new Date('1997-09-01T00:00:00Z');
    const again = parseRecurrence(lines, START, NY);
    expect(again.ok && expandSeries(again.series, { now })).toEqual(expandSeries(seriesOf(given, START, NY), { now }));
    expect(again.ok && expandSeries(again.series, { now }).ok && (expandSeries(again.series, { now }) as { occurrences: unknown[] }).occurrences.length).toBe(101);
  });

  it('reads back as the same series', () => {
    const lines = ['RRULE:FREQ=WEEKLY;BYDAY=MO,FR;UNTIL=19971231T000000', 'RDATE;TZID=Europe/Vilnius:19970910T160000', 'EXDATE:19970905T130000Z', 'EXDATE;VALUE=DATE:19970908'];
    const now = new Date('1997-09-01T00:00:00Z');
    const series = seriesOf(lines, START, NY);
    const again = seriesOf(recurrenceLines(series), START, NY);
    const expected = occurrencesOf(expandSeries(series, { now }));
    expect(expected.length).toBeGreaterThan(20);
    expect(occurrencesOf(expandSeries(again, { now }))).toEqual(expected);
    expect(recurrenceLines(again)).toEqual(recurrenceLines(series));
  });
});
