// The `recurrence` an imported Events Calendar Pro series is written with: Pro's excluded rules
// become the EXDATEs of the days they take, an event off its rule's pattern stays the first
// occurrence (an RDATE), no exclusion takes the event itself, and what this API would refuse is
// said in words. Each result is expanded as this API expands it, and by ical.js.
import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { expandSeries } from '#lib/domain/recurrence/expand.js';
import { parseRecurrence } from '#lib/domain/recurrence/parse.js';
import { type ProEvent, proRecurrenceToRfc5545 } from '#lib/import/pro-recurrence/rfc5545.js';
import { seriesLines } from '#lib/import/pro-recurrence/series-lines.js';

const classic: Record<string, string> = JSON.parse(readFileSync(new URL('../fixtures/pro-recurrence/classic.json', import.meta.url), 'utf8'));
// Monday 1 March 2027, 19:00 to 21:00 in Vilnius.
const event: ProEvent = { start: '2027-03-01 19:00:00', end: '2027-03-01 21:00:00', timezone: 'Europe/Vilnius' };
const limits = { now: new Date('2026-12-01T00:00:00Z'), horizonMonths: 60, maxOccurrences: 5000 };

const linesOf = (name: string, e: ProEvent = event) => seriesLines(proRecurrenceToRfc5545(classic[name]!, e), e, limits);

/** The first `n` starts (wall times) the lines give, as this API expands them. */
function starts(lines: string[], e: ProEvent, n: number): string[] {
  const parsed = parseRecurrence(lines, e.start, e.timezone, e.allDay);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const out = expandSeries(parsed.series, limits);
  if (!out.ok) throw new Error(out.error.message);
  return out.occurrences.slice(0, n).map((o) => o.start);
}

/** The first `n` dates of the same lines through ical.js, with the event as DTSTART. */
function icalDates(lines: string[], e: ProEvent, n: number): string[] {
  const text = [
    'BEGIN:VCALENDAR',
    'BEGIN:VEVENT',
    'UID:x',
    `DTSTART;TZID=${e.timezone}:${e.start.replaceAll('-', '').replace(' ', 'T').replaceAll(':', '')}`,
    ...lines,
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n');
  const vevent = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!);
  const it = vevent.iterator();
  return Array.from({ length: n }, () => it.next()?.toString().slice(0, 10) ?? '');
}

describe('seriesLines', () => {
  it("turns Pro's excluded rules into the EXDATEs of the days they take, never the event's own", () => {
    const got = linesOf('weekly with an excluded date and an excluded rule');
    // The excluded rule is every fourth Monday from the event, three times: 1 March (the event itself, kept), 29 March, 26 April.
    expect(got).toMatchObject({
      lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO', 'EXDATE;TZID=Europe/Vilnius:20270315T190000,20270329T190000,20270426T190000'],
    });
    const lines = (got as { lines: string[] }).lines;
    const expected = ['2027-03-01', '2027-03-08', '2027-03-22', '2027-04-05', '2027-04-12', '2027-04-19', '2027-05-03'];
    expect(starts(lines, event, 7).map((s) => s.slice(0, 10))).toEqual(expected);
    expect(icalDates(lines, event, 7)).toEqual(expected);
  });

  it("keeps an event off its rule's pattern as the first occurrence, with an RDATE readers see", () => {
    const got = linesOf('monthly on day 31');
    expect(got).toMatchObject({ lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=31', 'RDATE;TZID=Europe/Vilnius:20270301T190000'] });
    const lines = (got as { lines: string[] }).lines;
    expect(starts(lines, event, 3)).toEqual(['2027-03-01 19:00:00', '2027-03-31 19:00:00', '2027-05-31 19:00:00']);
    expect(icalDates(lines, event, 3)).toEqual(['2027-03-01', '2027-03-31', '2027-05-31']);
  });

  it("drops an excluded date that is the event's own, as Pro never excludes the event", () => {
    const pro = { lines: ['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE;TZID=Europe/Vilnius:20270301T190000'], excludeRules: [] };
    expect(seriesLines(pro, event, limits)).toMatchObject({ lines: ['RRULE:FREQ=WEEKLY;COUNT=3'] });
  });

  it('gives all-day series dates, and a fixed offset UTC times', () => {
    const allDay: ProEvent = { start: '2027-03-01 00:00:00', end: '2027-03-01 23:59:59', timezone: 'Europe/Vilnius', allDay: true };
    expect(linesOf('weekly with an excluded date and an excluded rule', allDay)).toMatchObject({
      lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO', 'EXDATE;VALUE=DATE:20270315,20270329,20270426'],
    });
    const fixed: ProEvent = { ...event, timezone: 'UTC+2' };
    expect(linesOf('monthly on day 31', fixed)).toMatchObject({ lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=31', 'RDATE:20270301T170000Z'] });
  });

  it('says in words why a series stays its own dates only', () => {
    // A date at its own time and length is an RDATE of VALUE=PERIOD, which this API does not take.
    expect(linesOf('an extra date at its own time')).toEqual({ unsupported: expect.stringMatching(/PERIOD/) });
    expect(seriesLines({ unsupported: 'a rule of type X' }, event, limits)).toEqual({ unsupported: 'a rule of type X' });
    // More occurrences than this API follows.
    const many = seriesLines({ lines: ['RRULE:FREQ=DAILY;COUNT=6000'], excludeRules: [] }, event, limits);
    expect(many).toEqual({ unsupported: expect.stringMatching(/^its rules RRULE:FREQ=DAILY;COUNT=6000: .*5000/) });
  });
});
