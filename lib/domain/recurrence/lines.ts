// A series written back as RFC 5545 lines, for answers and calendar feeds: names and values upper
// case, an RRULE's parts in the RFC's order (§3.3.10), and the RDATE and EXDATE values grouped by
// form and sorted. Date-times in the event's zone keep its TZID; those in another zone, and those
// the event's zone shows twice or never (which readers take differently), are written in UTC.
import { civil, formatNaive } from './calendar.js';
import type { Moment } from './moments.js';
import { MAX_LINE_LENGTH, type Series } from './parse.js';
import { type Rule, WEEKDAYS } from './rule.js';
import { ZoneClock } from './zone-clock.js';

const basicDate = (day: number) => {
  const { year, month, day: d } = civil(day);
  return `${String(year).padStart(4, '0')}${String(month).padStart(2, '0')}${String(d).padStart(2, '0')}`;
};
const basicDateTime = (naive: number) => formatNaive(naive).replace(/[-:]/g, '').replace(' ', 'T');

/** A parameter value, quoted when it holds a character that would end it (`UTC+3:30`). */
const paramValue = (value: string) => (/[;:,]/.test(value) ? `"${value}"` : value);

const list = (values: readonly (number | string)[]) => [...new Set(values.map(String))].join(',');

function untilText(rule: Rule, clock: ZoneClock): string | undefined {
  const until = rule.until;
  if (!until) return undefined;
  if (until.kind === 'date') return basicDate(until.day);
  // RFC 5545 wants UNTIL in UTC when DTSTART has a zone; a local UNTIL is read in the event's zone.
  return `${basicDateTime(until.kind === 'utc' ? until.naive : clock.toInstant(until.naive))}Z`;
}

/** An RRULE's value in the RFC's order of parts. */
export function ruleText(rule: Rule, clock: ZoneClock): string {
  const parts: [string, string | undefined][] = [
    ['FREQ', rule.freq],
    ['UNTIL', untilText(rule, clock)],
    ['COUNT', rule.count?.toString()],
    ['INTERVAL', rule.interval === 1 ? undefined : String(rule.interval)],
    ['BYSECOND', rule.bySecond && list(rule.bySecond)],
    ['BYMINUTE', rule.byMinute && list(rule.byMinute)],
    ['BYHOUR', rule.byHour && list(rule.byHour)],
    ['BYDAY', rule.byDay && list(rule.byDay.map((d) => `${d.nth || ''}${WEEKDAYS[d.weekday]}`))],
    ['BYMONTHDAY', rule.byMonthDay && list(rule.byMonthDay)],
    ['BYYEARDAY', rule.byYearDay && list(rule.byYearDay)],
    ['BYWEEKNO', rule.byWeekNo && list(rule.byWeekNo)],
    ['BYMONTH', rule.byMonth && list(rule.byMonth)],
    ['BYSETPOS', rule.bySetPos && list(rule.bySetPos)],
    ['WKST', rule.wkstGiven ? WEEKDAYS[rule.wkst] : undefined],
  ];
  return parts
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join(';');
}

/** RDATE or EXDATE lines: dates, then date-times in the event's zone, then UTC, each group sorted. */
function momentLines(name: string, moments: readonly Moment[], series: Series, clock: ZoneClock): string[] {
  const dates = new Set<number>();
  const local = new Set<number>();
  const utc = new Set<number>();
  for (const m of moments) {
    if (m.kind === 'date') dates.add(m.day);
    else if (m.kind === 'utc') utc.add(m.naive);
    else if (m.tz === series.tz && !clock.unclear(m.naive)) local.add(m.naive);
    else utc.add((m.tz === series.tz ? clock : new ZoneClock(m.tz)).toInstant(m.naive));
  }
  const sorted = (values: Set<number>, text: (v: number) => string) => [...values].sort((a, b) => a - b).map(text);
  return [
    ...packed(`${name};VALUE=DATE:`, sorted(dates, basicDate)),
    ...packed(`${name};TZID=${paramValue(series.tz)}:`, sorted(local, basicDateTime)),
    ...packed(
      `${name}:`,
      sorted(utc, (v) => `${basicDateTime(v)}Z`),
    ),
  ];
}

/** Values after `head`, as few lines as hold them within the length a line may have (so that the lines read back). */
function packed(head: string, values: string[]): string[] {
  const lines: string[] = [];
  let line = '';
  for (const v of values) {
    if (line && line.length + 1 + v.length > MAX_LINE_LENGTH) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line},${v}` : `${head}${v}`;
  }
  return line ? [...lines, line] : lines;
}

/** The series' recurrence lines: its RRULEs in their order, then its RDATEs and EXDATEs. */
export function recurrenceLines(series: Series): string[] {
  const clock = new ZoneClock(series.tz);
  return [
    ...series.rules.map(({ rule }) => `RRULE:${ruleText(rule, clock)}`),
    ...momentLines('RDATE', series.rdates, series, clock),
    ...momentLines('EXDATE', series.exdates, series, clock),
  ];
}
