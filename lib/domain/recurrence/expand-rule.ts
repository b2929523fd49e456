// One RRULE's occurrences (RFC 5545 §3.3.10), in wall time: period by period (a day, a week, a
// month or a year, INTERVAL apart), every day of the period that passes each BYxxx part given (an
// "expand" part and a "limit" part come to the same test once the whole period is walked), at each
// BYHOUR × BYMINUTE × BYSECOND time, then BYSETPOS within the period, then COUNT and UNTIL.
import { civil, dayNumber, isLeap, MS_DAY, monthLength, weekday } from './calendar.js';
import type { ByDay, Rule } from './rule.js';
import type { ZoneClock } from './zone-clock.js';

export interface RulePlan {
  rule: Rule;
  /** DTSTART, naive ms: always the first occurrence (RFC 5545 §3.3.10, COUNT). */
  start: number;
  clock: ZoneClock;
  /** The last wall time (naive ms) worth generating. */
  end: number;
  /** Skips the periods before this wall time (for rules without COUNT, whose count does not matter). */
  from?: number;
  /** Occurrences before this wall time are counted for COUNT but neither kept nor held against `cap`. */
  keepFrom?: number;
  /** More occurrences than this answers `overflow`. */
  cap: number;
  /** Days the series may still examine: a rule whose matches are far apart stops with `exhausted`. */
  budget: { days: number };
}

export interface RuleExpansion {
  /** Wall times (naive ms), ascending, DTSTART first. */
  naives: number[];
  overflow: boolean;
  exhausted: boolean;
}

/** The day tests of a rule, with RFC 5545's defaults from DTSTART filled in. */
interface Filters {
  months?: boolean[];
  weekNos?: number[];
  yearDays?: number[];
  monthDays?: number[];
  weekdays?: boolean[];
  ordinals?: ByDay[];
  /** Whether an ordinal BYDAY counts within the month (MONTHLY, or YEARLY with BYMONTH) or the year. */
  ordinalInMonth: boolean;
  /** Times of day, ms, ascending. */
  times: number[];
}

interface Period {
  /** Day ranges [first, last], ascending. */
  spans: [number, number][];
  /** For BYWEEKNO: the first day of week 1 and the number of weeks of the period's year. */
  week1: number;
  weeks: number;
}

// Periods after which the calendar repeats (400 Gregorian years = 146097 days = 20871 weeks): a rule
// that found nothing in that many periods never will.
const CYCLE = { DAILY: 146_097, WEEKLY: 20_871, MONTHLY: 4_800, YEARLY: 400 };

function mask(values: number[], size: number): boolean[] {
  const m = new Array<boolean>(size).fill(false);
  for (const v of values) m[v] = true;
  return m;
}

function timesOf(rule: Rule, startMs: number): number[] {
  const secs = Math.floor(startMs / 1000);
  const hours = rule.byHour ?? [Math.floor(secs / 3600)];
  const minutes = rule.byMinute ?? [Math.floor(secs / 60) % 60];
  const seconds = rule.bySecond ?? [secs % 60];
  const out = new Set<number>();
  for (const h of hours) for (const m of minutes) for (const s of seconds) out.add(((h * 60 + m) * 60 + s) * 1000);
  return [...out].sort((a, b) => a - b);
}

function filtersOf(rule: Rule, start: number): Filters {
  const day = Math.floor(start / MS_DAY);
  const date = civil(day);
  let { byMonth, byMonthDay, byDay } = rule;
  const dayParts = rule.byWeekNo || rule.byYearDay || byMonthDay || byDay;
  // Without day parts, the rule repeats DTSTART's day of the week, the month or the year.
  if (rule.freq === 'WEEKLY' && !byDay) byDay = [{ weekday: weekday(day), nth: 0 }];
  if (rule.freq === 'MONTHLY' && !dayParts) byMonthDay = [date.day];
  if (rule.freq === 'YEARLY' && !dayParts) {
    byMonthDay = [date.day];
    byMonth ??= [date.month];
  }
  const plain = byDay?.filter((d) => d.nth === 0).map((d) => d.weekday);
  const ordinals = byDay?.filter((d) => d.nth !== 0);
  return {
    months: byMonth && mask(byMonth, 13),
    weekNos: rule.byWeekNo,
    yearDays: rule.byYearDay,
    monthDays: byMonthDay,
    weekdays: byDay && mask(plain!, 7),
    ordinals: ordinals?.length ? ordinals : undefined,
    ordinalInMonth: rule.freq === 'MONTHLY' || byMonth !== undefined,
    times: timesOf(rule, start - day * MS_DAY),
  };
}

/** n matches a day counted from the start (1, 2, …) or from the end (-1, -2, …) of `length`. */
const counted = (values: number[], n: number, length: number) => values.some((v) => v === n || v === n - length - 1);

function ordinalMatches(ordinals: ByDay[], d: number, first: number, last: number): boolean {
  const w = weekday(d);
  const fromStart = Math.floor((d - first) / 7) + 1;
  const fromEnd = -(Math.floor((last - d) / 7) + 1);
  return ordinals.some((o) => o.weekday === w && (o.nth === fromStart || o.nth === fromEnd));
}

function dayMatches(d: number, f: Filters, period: Period): boolean {
  const { year, month, day } = civil(d);
  if (f.months && !f.months[month]) return false;
  if (f.weekNos && !counted(f.weekNos, Math.floor((d - period.week1) / 7) + 1, period.weeks)) return false;
  const yearFirst = f.yearDays || (f.ordinals && !f.ordinalInMonth) ? dayNumber(year, 1, 1) : 0;
  const yearLength = isLeap(year) ? 366 : 365;
  if (f.yearDays && !counted(f.yearDays, d - yearFirst + 1, yearLength)) return false;
  const mLength = monthLength(year, month);
  if (f.monthDays && !counted(f.monthDays, day, mLength)) return false;
  if (f.weekdays && !f.weekdays[weekday(d)]) {
    if (!f.ordinals) return false;
    const first = f.ordinalInMonth ? d - day + 1 : yearFirst;
    const last = f.ordinalInMonth ? first + mLength - 1 : yearFirst + yearLength - 1;
    if (!ordinalMatches(f.ordinals, d, first, last)) return false;
  }
  return true;
}

/** First day of week 1 of a year: the week (from WKST) holding January 4th, so at least four of its days are in the year. */
function week1(year: number, wkst: number): number {
  const jan4 = dayNumber(year, 1, 4);
  return jan4 - ((weekday(jan4) - wkst + 7) % 7);
}

/** A YEARLY period: the year's weeks for BYWEEKNO, its months in BYMONTH, or the whole year. */
function yearPeriod(rule: Rule, f: Filters, year: number): Period {
  const w1 = week1(year, rule.wkst);
  const next = week1(year + 1, rule.wkst);
  const period: Period = { spans: [], week1: w1, weeks: (next - w1) / 7 };
  if (rule.byWeekNo) period.spans.push([w1, next - 1]);
  else if (f.months) {
    for (let m = 1; m <= 12; m++) if (f.months[m]) period.spans.push([dayNumber(year, m, 1), dayNumber(year, m, monthLength(year, m))]);
  } else period.spans.push([dayNumber(year, 1, 1), dayNumber(year, 12, 31)]);
  return period;
}

/** The k-th period of the rule (k counts INTERVALs from DTSTART's period). */
function periodAt(rule: Rule, f: Filters, startDay: number, k: number): Period {
  const step = k * rule.interval;
  const none = { week1: 0, weeks: 0 };
  if (rule.freq === 'DAILY') return { spans: [[startDay + step, startDay + step]], ...none };
  if (rule.freq === 'WEEKLY') {
    const first = startDay - ((weekday(startDay) - rule.wkst + 7) % 7) + 7 * step;
    return { spans: [[first, first + 6]], ...none };
  }
  const date = civil(startDay);
  if (rule.freq === 'YEARLY') return yearPeriod(rule, f, date.year + step);
  const total = date.year * 12 + date.month - 1 + step;
  const year = Math.floor(total / 12);
  const month = total - year * 12 + 1;
  return { spans: [[dayNumber(year, month, 1), dayNumber(year, month, monthLength(year, month))]], ...none };
}

/** The first period worth walking to reach `from` (one early, for periods that start before their year). */
function firstPeriod(rule: Rule, startDay: number, from: number): number {
  const fromDay = Math.floor(from / MS_DAY);
  const a = civil(startDay);
  const b = civil(fromDay);
  const units = {
    DAILY: fromDay - startDay,
    WEEKLY: Math.floor((fromDay - startDay) / 7),
    MONTHLY: b.year * 12 + b.month - (a.year * 12 + a.month),
    YEARLY: b.year - a.year,
  }[rule.freq];
  return Math.max(0, Math.floor(units / rule.interval) - 1);
}

/** BYSETPOS: the n-th (or n-th from last) of the period's occurrences. */
function pickPositions(candidates: number[], positions: number[]): number[] {
  const chosen = new Set<number>();
  for (const p of positions) {
    const i = p > 0 ? p - 1 : candidates.length + p;
    if (i >= 0 && i < candidates.length) chosen.add(candidates[i]!);
  }
  return [...chosen].sort((a, b) => a - b);
}

/** A period's occurrences (naive ms, ascending), or undefined when the budget of days runs out. */
function periodOccurrences(plan: RulePlan, f: Filters, period: Period): number[] | undefined {
  const found: number[] = [];
  for (const [first, last] of period.spans) {
    plan.budget.days -= last - first + 1;
    if (plan.budget.days < 0) return undefined;
    for (let d = first; d <= last; d++) {
      if (!dayMatches(d, f, period)) continue;
      for (const t of f.times) found.push(d * MS_DAY + t);
    }
  }
  return plan.rule.bySetPos ? pickPositions(found, plan.rule.bySetPos) : found;
}

function pastUntil(plan: RulePlan, naive: number): boolean {
  const until = plan.rule.until;
  if (!until) return false;
  if (until.kind === 'date') return Math.floor(naive / MS_DAY) > until.day;
  if (until.kind === 'local') return naive > until.naive;
  return plan.clock.toInstant(naive) > until.naive;
}

/** The rule's occurrences from DTSTART (or the period before `from`) to `end`, UNTIL or COUNT. */
export function expandRule(plan: RulePlan): RuleExpansion {
  const { rule, start } = plan;
  const f = filtersOf(rule, start);
  const startDay = Math.floor(start / MS_DAY);
  const keepFrom = plan.keepFrom ?? -Infinity;
  const result: RuleExpansion = { naives: start <= plan.end && start >= keepFrom ? [start] : [], overflow: false, exhausted: false };
  const naives = result.naives;
  const limit = rule.count ?? Infinity;
  let counted = 1; // DTSTART
  let empty = 0;
  for (let k = plan.from === undefined ? 0 : firstPeriod(rule, startDay, plan.from); counted < limit; k++) {
    const period = periodAt(rule, f, startDay, k);
    if (period.spans.length && period.spans[0]![0] * MS_DAY > plan.end) return result;
    const found = periodOccurrences(plan, f, period);
    if (!found) return { ...result, exhausted: true };
    if (!found.length && ++empty >= CYCLE[rule.freq]) return result;
    if (found.length) empty = 0;
    for (const naive of found) {
      if (naive <= start) continue;
      if (naive > plan.end || pastUntil(plan, naive) || counted >= limit) return result;
      counted++;
      if (naive < keepFrom) continue;
      naives.push(naive);
      if (naives.length > plan.cap) return { ...result, overflow: true };
    }
  }
  return result;
}

/**
 * Whether DTSTART is one of the rule's own matches. A start off the rule's pattern is still the
 * series' first occurrence here (RFC 5545 §3.8.5.2), but readers differ on it (ical.js skips it).
 */
export function matchesStart(rule: Rule, start: number, clock: ZoneClock): boolean {
  const f = filtersOf(rule, start);
  const plan: RulePlan = { rule, start, clock, end: start, cap: 1, budget: { days: 400 } };
  return periodOccurrences(plan, f, periodAt(rule, f, Math.floor(start / MS_DAY), 0))?.includes(start) ?? false;
}
