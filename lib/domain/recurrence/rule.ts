// An RRULE's value (RFC 5545 §3.3.10) read and checked part by part, with the combinations the RFC
// forbids refused in plain words, and written back in the RFC's order of parts.
import { dayNumber, MS_DAY, monthLength } from './calendar.js';

export type Freq = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';

/** A BYDAY entry: 0 = Sunday … 6 = Saturday, and the nth such day of the month or year (0: every one). */
export interface ByDay {
  weekday: number;
  nth: number;
}

/** An UNTIL bound: a UTC or local date-time (naive ms), or a date (day number). */
export type Until = { kind: 'utc'; naive: number } | { kind: 'local'; naive: number } | { kind: 'date'; day: number };

export interface Rule {
  freq: Freq;
  interval: number;
  count?: number;
  until?: Until;
  bySecond?: number[];
  byMinute?: number[];
  byHour?: number[];
  byDay?: ByDay[];
  byMonthDay?: number[];
  byYearDay?: number[];
  byWeekNo?: number[];
  byMonth?: number[];
  bySetPos?: number[];
  /** The week's first day, 0 = Sunday; Monday unless WKST says otherwise. */
  wkst: number;
  wkstGiven: boolean;
}

export const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const FREQS = ['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];

type NumberPart = 'BYSECOND' | 'BYMINUTE' | 'BYHOUR' | 'BYMONTHDAY' | 'BYYEARDAY' | 'BYWEEKNO' | 'BYMONTH' | 'BYSETPOS';

/** Each numeric part's range, and whether its negative mirror (counting from the end) is allowed. */
const RANGES: Record<NumberPart, { min: number; max: number; signed: boolean; key: keyof Rule }> = {
  BYSECOND: { min: 0, max: 59, signed: false, key: 'bySecond' },
  BYMINUTE: { min: 0, max: 59, signed: false, key: 'byMinute' },
  BYHOUR: { min: 0, max: 23, signed: false, key: 'byHour' },
  BYMONTHDAY: { min: 1, max: 31, signed: true, key: 'byMonthDay' },
  BYYEARDAY: { min: 1, max: 366, signed: true, key: 'byYearDay' },
  BYWEEKNO: { min: 1, max: 53, signed: true, key: 'byWeekNo' },
  BYMONTH: { min: 1, max: 12, signed: false, key: 'byMonth' },
  BYSETPOS: { min: 1, max: 366, signed: true, key: 'bySetPos' },
};

const PARTS = new Set(['FREQ', 'UNTIL', 'COUNT', 'INTERVAL', 'BYDAY', 'WKST', ...Object.keys(RANGES)]);

class RuleError extends Error {}
const fail = (message: string): never => {
  throw new RuleError(message);
};

function numberList(name: NumberPart, value: string): number[] {
  const { min, max, signed } = RANGES[name];
  const range = signed ? `${min} to ${max} or -${max} to -${min}` : `${min} to ${max}`;
  return value.split(',').map((item) => {
    if (!/^[+-]?\d{1,3}$/.test(item)) fail(`${name}=${item} is not a whole number`);
    const n = Number(item);
    const abs = Math.abs(n);
    if (abs < min || abs > max || (n < 0 && !signed)) {
      fail(name === 'BYSECOND' && n === 60 ? 'BYSECOND=60 (a leap second) is not supported' : `${name}=${item} is out of range (${range})`);
    }
    return n;
  });
}

function byDayList(value: string): ByDay[] {
  return value.split(',').map((item) => {
    const m = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(item);
    const weekday = m ? WEEKDAYS.indexOf(m[2]!) : -1;
    if (!m || weekday < 0) return fail(`BYDAY=${item} is not a week day (MO, TU, WE, TH, FR, SA or SU, optionally after an ordinal such as 1MO or -1FR)`);
    const nth = m[1] === undefined ? 0 : Number(m[1]);
    if (m[1] !== undefined && (nth === 0 || Math.abs(nth) > 53)) fail(`BYDAY=${item}: the ordinal must be from 1 to 53 or -53 to -1`);
    return { weekday, nth };
  });
}

function positive(name: string, value: string): number {
  if (!/^\+?\d{1,9}$/.test(value) || Number(value) < 1) fail(`${name} must be a whole number from 1, got ${value}`);
  return Number(value);
}

/** UNTIL's date or date-time, which must be of DTSTART's kind. */
function untilOf(value: string, allDay: boolean): Until {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(value);
  if (!m) return fail(`UNTIL=${value} is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSSZ)`);
  const [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
  if (mo < 1 || mo > 12 || d < 1 || d > monthLength(y, mo)) fail(`UNTIL=${value} is not a valid date`);
  const day = dayNumber(y, mo, d);
  if (m[4] === undefined) return allDay ? { kind: 'date', day } : fail('UNTIL must be a date-time when DTSTART is a date-time (the event is not all-day)');
  if (allDay) fail('UNTIL must be a date when DTSTART is a date (an all-day event)');
  const [h, mi, s] = [+m[4]!, +m[5]!, +m[6]!];
  if (h > 23 || mi > 59 || s > 59) fail(`UNTIL=${value} is not a valid time`);
  const naive = day * MS_DAY + ((h * 60 + mi) * 60 + s) * 1000;
  return { kind: m[7] ? 'utc' : 'local', naive };
}

function freqOf(value: string): Freq {
  if (!FREQS.includes(value)) fail(`FREQ=${value} is not a frequency (DAILY, WEEKLY, MONTHLY or YEARLY)`);
  if (FREQS.indexOf(value) < 3) fail(`FREQ=${value} is not supported: events repeat at most daily`);
  return value as Freq;
}

function setPart(rule: Partial<Rule>, name: string, value: string, allDay: boolean): void {
  if (name === 'FREQ') rule.freq = freqOf(value);
  else if (name === 'INTERVAL') rule.interval = positive('INTERVAL', value);
  else if (name === 'COUNT') rule.count = positive('COUNT', value);
  else if (name === 'UNTIL') rule.until = untilOf(value, allDay);
  else if (name === 'BYDAY') rule.byDay = byDayList(value);
  else if (name === 'WKST') {
    rule.wkst = WEEKDAYS.indexOf(value);
    rule.wkstGiven = true;
    if (rule.wkst < 0) fail(`WKST=${value} is not a week day (MO, TU, WE, TH, FR, SA or SU)`);
  } else (rule as Record<string, unknown>)[RANGES[name as NumberPart].key] = numberList(name as NumberPart, value);
}

/** The combinations RFC 5545 §3.3.10 forbids, and the parts an all-day series cannot have. */
function checkCombinations(rule: Rule, allDay: boolean): void {
  const { freq } = rule;
  if (rule.count !== undefined && rule.until) fail('COUNT and UNTIL cannot both be given');
  if (rule.byDay?.some((d) => d.nth !== 0)) {
    if (freq !== 'MONTHLY' && freq !== 'YEARLY') fail(`BYDAY with an ordinal (such as 1MO) needs FREQ=MONTHLY or FREQ=YEARLY, not FREQ=${freq}`);
    if (rule.byWeekNo) fail('BYDAY with an ordinal (such as 1MO) cannot be combined with BYWEEKNO');
  }
  if (rule.byWeekNo && freq !== 'YEARLY') fail(`BYWEEKNO needs FREQ=YEARLY, not FREQ=${freq}`);
  if (rule.byYearDay && freq !== 'YEARLY') fail(`BYYEARDAY needs FREQ=YEARLY, not FREQ=${freq}`);
  if (rule.byMonthDay && freq === 'WEEKLY') fail('BYMONTHDAY cannot be used with FREQ=WEEKLY');
  const others = [rule.bySecond, rule.byMinute, rule.byHour, rule.byDay, rule.byMonthDay, rule.byYearDay, rule.byWeekNo, rule.byMonth];
  if (rule.bySetPos && !others.some(Boolean)) fail('BYSETPOS needs another BY rule part (BYDAY, BYMONTHDAY, …) to choose from');
  if (allDay) {
    for (const [name, part] of [
      ['BYHOUR', rule.byHour],
      ['BYMINUTE', rule.byMinute],
      ['BYSECOND', rule.bySecond],
    ] as const) {
      if (part) fail(`${name} cannot be used when DTSTART is a date (an all-day event)`);
    }
  }
}

/** An RRULE value -> the rule, or the message saying what is wrong with it. */
export function parseRule(value: string, allDay: boolean): Rule | string {
  const rule: Partial<Rule> = { interval: 1, wkst: 1, wkstGiven: false };
  const seen = new Set<string>();
  try {
    if (value === '') fail('RRULE needs a value such as FREQ=WEEKLY');
    for (const part of value.toUpperCase().split(';')) {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      if (part === '') fail('empty rule part (a stray ";")');
      if (!PARTS.has(name)) fail(`${name} is not an RRULE part`);
      if (eq < 0 || eq === part.length - 1) fail(`${name} needs a value (${name}=…)`);
      if (seen.has(name)) fail(`${name} is given twice`);
      seen.add(name);
      setPart(rule, name, part.slice(eq + 1), allDay);
    }
    if (!rule.freq) fail('FREQ is required');
    checkCombinations(rule as Rule, allDay);
  } catch (e) {
    if (e instanceof RuleError) return e.message;
    throw e;
  }
  return rule as Rule;
}
