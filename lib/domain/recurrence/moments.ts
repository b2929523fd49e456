// RDATE and EXDATE values (RFC 5545 §3.8.5.1-2): dates, date-times in a TZID, in UTC (…Z), or
// floating (read in the series' zone), comma-separated.
import { isValidTimezone } from '#lib/domain/time/dates.js';
import { dayNumber, MS_DAY, monthLength } from './calendar.js';
import type { ContentLine } from './content-line.js';

/** A date (day number), a wall time (naive ms) in a zone, or a UTC time (naive ms of its UTC wall). */
export type Moment = { kind: 'date'; day: number } | { kind: 'local'; naive: number; tz: string } | { kind: 'utc'; naive: number };

const VALUE_RE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;

interface ValueContext {
  name: string;
  type: 'DATE' | 'DATE-TIME';
  tz: string;
}

function momentOf(text: string, ctx: ValueContext, tzGiven: boolean): Moment | string {
  const m = VALUE_RE.exec(text);
  if (!m) return `${ctx.name} value ${text} is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS)`;
  const [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
  if (mo < 1 || mo > 12 || d < 1 || d > monthLength(y, mo)) return `${ctx.name} value ${text} is not a valid date`;
  const day = dayNumber(y, mo, d);
  if (ctx.type === 'DATE') return m[4] === undefined ? { kind: 'date', day } : `${ctx.name} value ${text} is not a date (YYYYMMDD), as VALUE=DATE says`;
  if (m[4] === undefined) return `${ctx.name} value ${text} is a date: write ${ctx.name};VALUE=DATE:${text}, or give a time (YYYYMMDDTHHMMSS)`;
  const [h, mi, s] = [+m[4]!, +m[5]!, +m[6]!];
  if (h > 23 || mi > 59 || s > 59) return `${ctx.name} value ${text} is not a valid time`;
  const naive = day * MS_DAY + ((h * 60 + mi) * 60 + s) * 1000;
  if (!m[7]) return { kind: 'local', naive, tz: ctx.tz };
  return tzGiven ? `${ctx.name} value ${text} is in UTC (it ends in Z) and cannot have a TZID` : { kind: 'utc', naive };
}

/** The one value of a parameter, upper-cased for VALUE. */
function single(line: ContentLine, param: string): string | undefined {
  const values = line.params.get(param);
  return values && values.length === 1 ? values[0] : undefined;
}

function contextOf(line: ContentLine, seriesTz: string, allDay: boolean): ValueContext | string {
  const { name } = line;
  for (const param of line.params.keys()) {
    if (param !== 'VALUE' && param !== 'TZID') return `unknown parameter ${param} on ${name} (it takes VALUE and TZID)`;
    if (single(line, param) === undefined) return `${param} on ${name} takes one value`;
  }
  const type = single(line, 'VALUE')?.toUpperCase() ?? 'DATE-TIME';
  if (type === 'PERIOD' && name === 'RDATE') return 'RDATE;VALUE=PERIOD is not supported: give the start of each added occurrence';
  if (type !== 'DATE' && type !== 'DATE-TIME') return `VALUE=${type} is not a value type ${name} takes (DATE-TIME or DATE)`;
  const tz = single(line, 'TZID');
  if (tz !== undefined && !isValidTimezone(tz)) return `TZID=${tz} is not a known time zone`;
  if (tz !== undefined && type === 'DATE') return `TZID cannot be used with ${name};VALUE=DATE`;
  if (allDay && type !== 'DATE') return `${name} must be a date (${name};VALUE=DATE:YYYYMMDD) when DTSTART is a date (an all-day event)`;
  // A date excludes that day's occurrences, but an added date would have no time.
  if (!allDay && type === 'DATE' && name === 'RDATE') return 'RDATE must be a date-time when DTSTART is a date-time (the event is not all-day)';
  return { name, type, tz: tz ?? seriesTz };
}

/** The values of an RDATE or EXDATE line, or the message saying what is wrong. */
export function parseMoments(line: ContentLine, seriesTz: string, allDay: boolean): Moment[] | string {
  const ctx = contextOf(line, seriesTz, allDay);
  if (typeof ctx === 'string') return ctx;
  if (line.value === '') return `${line.name} needs a value`;
  const out: Moment[] = [];
  for (const text of line.value.toUpperCase().split(',')) {
    const moment = momentOf(text, ctx, line.params.has('TZID'));
    if (typeof moment === 'string') return moment;
    out.push(moment);
  }
  return out;
}
