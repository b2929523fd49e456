// RFC 5545 §3.8.5.3's own examples, in America/New_York as the RFC writes them, with the dates the
// RFC lists for each (the first ones for a series that goes on forever).
import { describe, expect, it } from 'vitest';
import { expandSeries, occurrencesBetween } from '#lib/domain/recurrence/expand.js';
import { occurrencesOf, seriesOf } from '../support/recurrence.js';

const NY = 'America/New_York';
const NOW = new Date('1997-09-01T00:00:00Z');

/** The series' occurrence starts (wall times in New York), the first `take` of them when given. */
function starts(lines: string[], start: string, take?: number): string[] {
  const all = occurrencesOf(expandSeries(seriesOf(lines, start, NY), { now: NOW, horizonMonths: 120 })).map((o) => o.start);
  return take === undefined ? all : all.slice(0, take);
}

/** 'YYYY-MM-DD' dates at 09:00, as nearly every example starts. */
const at9 = (dates: string) => dates.split(/\s+/).map((d) => `${d} 09:00:00`);

/** Every day from `from` to `to` (inclusive) at 09:00. */
function everyDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) out.push(`${new Date(t).toISOString().slice(0, 10)} 09:00:00`);
  return out;
}

describe('RFC 5545 §3.8.5.3 examples', () => {
  it('daily for 10 occurrences', () => {
    expect(starts(['RRULE:FREQ=DAILY;COUNT=10'], '1997-09-02 09:00:00')).toEqual(everyDay('1997-09-02', '1997-09-11'));
  });

  it('daily until December 24, 1997', () => {
    const got = starts(['RRULE:FREQ=DAILY;UNTIL=19971224T000000Z'], '1997-09-02 09:00:00');
    expect(got).toEqual(everyDay('1997-09-02', '1997-12-23'));
    expect(got).toHaveLength(113);
  });

  it('every other day, forever', () => {
    expect(starts(['RRULE:FREQ=DAILY;INTERVAL=2'], '1997-09-02 09:00:00', 6)).toEqual(at9('1997-09-02 1997-09-04 1997-09-06 1997-09-08 1997-09-10 1997-09-12'));
  });

  it('every 10 days, 5 occurrences', () => {
    expect(starts(['RRULE:FREQ=DAILY;INTERVAL=10;COUNT=5'], '1997-09-02 09:00:00')).toEqual(at9('1997-09-02 1997-09-12 1997-09-22 1997-10-02 1997-10-12'));
  });

  it('every day in January, for 3 years, written two ways', () => {
    const expected = [...everyDay('1998-01-01', '1998-01-31'), ...everyDay('1999-01-01', '1999-01-31'), ...everyDay('2000-01-01', '2000-01-31')];
    expect(starts(['RRULE:FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA'], '1998-01-01 09:00:00')).toEqual(expected);
    expect(starts(['RRULE:FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1'], '1998-01-01 09:00:00')).toEqual(expected);
  });

  it('weekly for 10 occurrences, keeping 09:00 across the end of daylight time', () => {
    const occurrences = occurrencesOf(expandSeries(seriesOf(['RRULE:FREQ=WEEKLY;COUNT=10'], '1997-09-02 09:00:00', NY), { now: NOW }));
    expect(occurrences.map((o) => o.start)).toEqual(at9('1997-09-02 1997-09-09 1997-09-16 1997-09-23 1997-09-30 1997-10-07 1997-10-14 1997-10-21 1997-10-28 1997-11-04'));
    expect(occurrences[0]!.utc).toBe('1997-09-02 13:00:00');
    expect(occurrences[8]!.utc).toBe('1997-10-28 14:00:00');
  });

  it('weekly until December 24, 1997', () => {
    expect(starts(['RRULE:FREQ=WEEKLY;UNTIL=19971224T000000Z'], '1997-09-02 09:00:00')).toEqual(
      at9(
        '1997-09-02 1997-09-09 1997-09-16 1997-09-23 1997-09-30 1997-10-07 1997-10-14 1997-10-21 1997-10-28 1997-11-04 1997-11-11 1997-11-18 1997-11-25 1997-12-02 1997-12-09 1997-12-16 1997-12-23',
      ),
    );
  });

  it('every other week, forever', () => {
    expect(starts(['RRULE:FREQ=WEEKLY;INTERVAL=2;WKST=SU'], '1997-09-02 09:00:00', 13)).toEqual(
      at9('1997-09-02 1997-09-16 1997-09-30 1997-10-14 1997-10-28 1997-11-11 1997-11-25 1997-12-09 1997-12-23 1998-01-06 1998-01-20 1998-02-03 1998-02-17'),
    );
  });

  it('weekly on Tuesday and Thursday for five weeks, written two ways', () => {
    const expected = at9('1997-09-02 1997-09-04 1997-09-09 1997-09-11 1997-09-16 1997-09-18 1997-09-23 1997-09-25 1997-09-30 1997-10-02');
    expect(starts(['RRULE:FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH'], '1997-09-02 09:00:00')).toEqual(expected);
    expect(starts(['RRULE:FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH'], '1997-09-02 09:00:00')).toEqual(expected);
  });

  it('every other week on Monday, Wednesday and Friday until December 24, 1997', () => {
    expect(starts(['RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR'], '1997-09-01 09:00:00')).toEqual(
      at9(
        '1997-09-01 1997-09-03 1997-09-05 1997-09-15 1997-09-17 1997-09-19 1997-09-29 1997-10-01 1997-10-03 1997-10-13 1997-10-15 1997-10-17 1997-10-27 1997-10-29 1997-10-31 ' +
          '1997-11-10 1997-11-12 1997-11-14 1997-11-24 1997-11-26 1997-11-28 1997-12-08 1997-12-10 1997-12-12 1997-12-22',
      ),
    );
  });

  it('every other week on Tuesday and Thursday, for 8 occurrences', () => {
    expect(starts(['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH'], '1997-09-02 09:00:00')).toEqual(
      at9('1997-09-02 1997-09-04 1997-09-16 1997-09-18 1997-09-30 1997-10-02 1997-10-14 1997-10-16'),
    );
  });

  it('monthly on the first Friday, for 10 occurrences and until December 24, 1997', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;COUNT=10;BYDAY=1FR'], '1997-09-05 09:00:00')).toEqual(
      at9('1997-09-05 1997-10-03 1997-11-07 1997-12-05 1998-01-02 1998-02-06 1998-03-06 1998-04-03 1998-05-01 1998-06-05'),
    );
    expect(starts(['RRULE:FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR'], '1997-09-05 09:00:00')).toEqual(at9('1997-09-05 1997-10-03 1997-11-07 1997-12-05'));
  });

  it('every other month on the first and last Sunday of the month for 10 occurrences', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU'], '1997-09-07 09:00:00')).toEqual(
      at9('1997-09-07 1997-09-28 1997-11-02 1997-11-30 1998-01-04 1998-01-25 1998-03-01 1998-03-29 1998-05-03 1998-05-31'),
    );
  });

  it('monthly on the second-to-last Monday of the month for 6 months', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;COUNT=6;BYDAY=-2MO'], '1997-09-22 09:00:00')).toEqual(at9('1997-09-22 1997-10-20 1997-11-17 1997-12-22 1998-01-19 1998-02-16'));
  });

  it('monthly on the third-to-the-last day of the month, forever', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;BYMONTHDAY=-3'], '1997-09-28 09:00:00', 6)).toEqual(at9('1997-09-28 1997-10-29 1997-11-28 1997-12-29 1998-01-29 1998-02-26'));
  });

  it('monthly on the 2nd and 15th of the month for 10 occurrences', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15'], '1997-09-02 09:00:00')).toEqual(
      at9('1997-09-02 1997-09-15 1997-10-02 1997-10-15 1997-11-02 1997-11-15 1997-12-02 1997-12-15 1998-01-02 1998-01-15'),
    );
  });

  it('monthly on the first and last day of the month for 10 occurrences', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1'], '1997-09-30 09:00:00')).toEqual(
      at9('1997-09-30 1997-10-01 1997-10-31 1997-11-01 1997-11-30 1997-12-01 1997-12-31 1998-01-01 1998-01-31 1998-02-01'),
    );
  });

  it('every 18 months on the 10th thru 15th of the month for 10 occurrences', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15'], '1997-09-10 09:00:00')).toEqual(
      at9('1997-09-10 1997-09-11 1997-09-12 1997-09-13 1997-09-14 1997-09-15 1999-03-10 1999-03-11 1999-03-12 1999-03-13'),
    );
  });

  it('every Tuesday, every other month', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=TU'], '1997-09-02 09:00:00', 18)).toEqual(
      at9(
        '1997-09-02 1997-09-09 1997-09-16 1997-09-23 1997-09-30 1997-11-04 1997-11-11 1997-11-18 1997-11-25 1998-01-06 1998-01-13 1998-01-20 1998-01-27 1998-03-03 1998-03-10 1998-03-17 1998-03-24 1998-03-31',
      ),
    );
  });

  it('yearly in June and July for 10 occurrences', () => {
    expect(starts(['RRULE:FREQ=YEARLY;COUNT=10;BYMONTH=6,7'], '1997-06-10 09:00:00')).toEqual(
      at9('1997-06-10 1997-07-10 1998-06-10 1998-07-10 1999-06-10 1999-07-10 2000-06-10 2000-07-10 2001-06-10 2001-07-10'),
    );
  });

  it('every other year on January, February and March for 10 occurrences', () => {
    expect(starts(['RRULE:FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3'], '1997-03-10 09:00:00')).toEqual(
      at9('1997-03-10 1999-01-10 1999-02-10 1999-03-10 2001-01-10 2001-02-10 2001-03-10 2003-01-10 2003-02-10 2003-03-10'),
    );
  });

  it('every third year on the 1st, 100th and 200th day for 10 occurrences', () => {
    expect(starts(['RRULE:FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200'], '1997-01-01 09:00:00')).toEqual(
      at9('1997-01-01 1997-04-10 1997-07-19 2000-01-01 2000-04-09 2000-07-18 2003-01-01 2003-04-10 2003-07-19 2006-01-01'),
    );
  });

  it('every 20th Monday of the year, forever', () => {
    expect(starts(['RRULE:FREQ=YEARLY;BYDAY=20MO'], '1997-05-19 09:00:00', 3)).toEqual(at9('1997-05-19 1998-05-18 1999-05-17'));
  });

  it('Monday of week number 20, forever', () => {
    expect(starts(['RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO'], '1997-05-12 09:00:00', 3)).toEqual(at9('1997-05-12 1998-05-11 1999-05-17'));
  });

  it('every Thursday in March, forever', () => {
    expect(starts(['RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=TH'], '1997-03-13 09:00:00', 11)).toEqual(
      at9('1997-03-13 1997-03-20 1997-03-27 1998-03-05 1998-03-12 1998-03-19 1998-03-26 1999-03-04 1999-03-11 1999-03-18 1999-03-25'),
    );
  });

  it('every Thursday, but only during June, July and August, forever', () => {
    expect(starts(['RRULE:FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8'], '1997-06-05 09:00:00', 39)).toEqual(
      at9(
        '1997-06-05 1997-06-12 1997-06-19 1997-06-26 1997-07-03 1997-07-10 1997-07-17 1997-07-24 1997-07-31 1997-08-07 1997-08-14 1997-08-21 1997-08-28 ' +
          '1998-06-04 1998-06-11 1998-06-18 1998-06-25 1998-07-02 1998-07-09 1998-07-16 1998-07-23 1998-07-30 1998-08-06 1998-08-13 1998-08-20 1998-08-27 ' +
          '1999-06-03 1999-06-10 1999-06-17 1999-06-24 1999-07-01 1999-07-08 1999-07-15 1999-07-22 1999-07-29 1999-08-05 1999-08-12 1999-08-19 1999-08-26',
      ),
    );
  });

  it('every Friday the 13th, forever, DTSTART excluded', () => {
    expect(starts(['EXDATE;TZID=America/New_York:19970902T090000', 'RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13'], '1997-09-02 09:00:00', 5)).toEqual(
      at9('1998-02-13 1998-03-13 1998-11-13 1999-08-13 2000-10-13'),
    );
  });

  it('the first Saturday that follows the first Sunday of the month, forever', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13'], '1997-09-13 09:00:00', 10)).toEqual(
      at9('1997-09-13 1997-10-11 1997-11-08 1997-12-13 1998-01-10 1998-02-07 1998-03-07 1998-04-11 1998-05-09 1998-06-13'),
    );
  });

  it('every 4 years, the first Tuesday after a Monday in November (U.S. Presidential Election day)', () => {
    const series = seriesOf(['RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8'], '1996-11-05 09:00:00', NY);
    expect(occurrencesOf(expandSeries(series, { now: NOW, horizonMonths: 12 * 8 })).map((o) => o.start)).toEqual(at9('1996-11-05 2000-11-07 2004-11-02'));
  });

  it('the third instance into the month of one of Tuesday, Wednesday or Thursday, for the next 3 months (BYSETPOS)', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3'], '1997-09-04 09:00:00')).toEqual(at9('1997-09-04 1997-10-07 1997-11-06'));
  });

  it('the second-to-last weekday of the month', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2'], '1997-09-29 09:00:00', 7)).toEqual(
      at9('1997-09-29 1997-10-30 1997-11-27 1997-12-30 1998-01-29 1998-02-26 1998-03-30'),
    );
  });

  it('every 20 minutes from 9:00 AM to 4:40 PM every day', () => {
    const times = [9, 10, 11, 12, 13, 14, 15, 16].flatMap((h) => [0, 20, 40].map((m) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`));
    const series = seriesOf(['RRULE:FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40'], '1997-09-02 09:00:00', NY);
    expect(occurrencesOf(occurrencesBetween(series, '1997-09-02 00:00:00', '1997-09-03 23:59:59')).map((o) => o.start)).toEqual([
      ...times.map((t) => `1997-09-02 ${t}`),
      ...times.map((t) => `1997-09-03 ${t}`),
    ]);
  });

  it('WKST changes which days an every-other-week rule takes', () => {
    expect(starts(['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO'], '1997-08-05 09:00:00')).toEqual(at9('1997-08-05 1997-08-10 1997-08-19 1997-08-24'));
    expect(starts(['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU'], '1997-08-05 09:00:00')).toEqual(at9('1997-08-05 1997-08-17 1997-08-19 1997-08-31'));
  });

  it('skips invalid dates: the 15th and 30th of each month, 5 occurrences', () => {
    expect(starts(['RRULE:FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5'], '2007-01-15 09:00:00')).toEqual(at9('2007-01-15 2007-01-30 2007-02-15 2007-03-15 2007-03-30'));
  });
});
