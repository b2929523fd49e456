// A series' occurrences (RFC 5545 §3.8.5): the RRULEs' and RDATEs' starts, less the EXDATEs',
// sorted and without repeats, as wall times in the event's zone and in UTC. Each occurrence keeps
// its wall time across daylight-saving changes; RDATEs and EXDATEs in other zones or in UTC are
// matched by instant, and an EXDATE date removes that day's occurrences.
import { addMonths, type Wall } from '#lib/domain/time/dates.js';
import { formatNaive, MS_DAY, NAIVE_END, parseNaive } from './calendar.js';
import { expandRule, type RulePlan } from './expand-rule.js';
import type { Moment } from './moments.js';
import type { RecurrenceError, Series } from './parse.js';
import { ZoneClock } from './zone-clock.js';

export interface Occurrence {
  /** The wall time in the series' zone. */
  start: Wall;
  /** The same instant as a UTC wall time. */
  utc: Wall;
}

export interface ExpandOptions {
  now: Date;
  /** How far after `now` rules without COUNT or UNTIL are followed (default 60 months). */
  horizonMonths?: number;
  /** More occurrences than this is an error (default 5000). */
  maxOccurrences?: number;
}

export type Expanded = { ok: true; occurrences: Occurrence[] } | { ok: false; error: RecurrenceError };

export const DEFAULT_HORIZON_MONTHS = 60;
export const DEFAULT_MAX_OCCURRENCES = 5_000;
// Days a series may look through for its occurrences: a rule matching once in centuries stops here.
const DAY_BUDGET = 500_000;
const LAST_NAIVE = NAIVE_END - 1000;

/** What to generate: up to `end` for unbounded rules (`window`: every rule), from `from` when given. */
interface Bounds {
  from?: number;
  end: number;
  window: boolean;
  max: number;
  /** Said of a rule without COUNT or UNTIL that passes `max` (of any rule, in a window). */
  within: string;
}

const fail = (line: number, message: string): Expanded => ({ ok: false, error: { line, message } });

/** The instant and wall time (naive ms) of an RDATE or EXDATE. */
function momentTimes(series: Series, clock: ZoneClock, m: Moment, startTime: number): { instant: number; naive: number } {
  if (m.kind === 'date') {
    const naive = m.day * MS_DAY + startTime;
    return { instant: clock.toInstant(naive), naive };
  }
  if (m.kind === 'utc') return { instant: m.naive, naive: clock.toNaive(m.naive) };
  const instant = (m.tz === series.tz ? clock : new ZoneClock(m.tz)).toInstant(m.naive);
  return { instant, naive: series.allDay ? m.naive : clock.toNaive(instant) };
}

/** Every RRULE's occurrences and the RDATEs, keyed by instant (by wall date for an all-day series). */
function gather(series: Series, clock: ZoneClock, bounds: Bounds, start: number): Map<number, number> | RecurrenceError {
  const found = new Map<number, number>();
  const add = (naive: number, instant: number) => found.set(series.allDay ? naive : instant, series.allDay ? naive : clock.toNaive(instant));
  const budget = { days: DAY_BUDGET };
  // DTSTART is always in the set (RFC 5545 §3.8.5.2), with or without an RRULE.
  add(start, clock.toInstant(start));
  for (const { line, rule } of series.rules) {
    const bounded = rule.count !== undefined || rule.until !== undefined;
    const plan: RulePlan = { rule, start, clock, end: bounded && !bounds.window ? LAST_NAIVE : bounds.end, cap: bounds.max + series.exdates.length, budget };
    if (rule.count === undefined) plan.from = bounds.from;
    if (bounds.window) plan.keepFrom = bounds.from;
    const expansion = expandRule(plan);
    if (expansion.exhausted) return { line, message: `recurrence[${line}]: the rule matches too rarely to list (it looks through more than ${DAY_BUDGET} days)` };
    if (expansion.overflow) return { line, message: `recurrence[${line}]: the series has more than ${bounds.max} occurrences${bounded ? '' : bounds.within}` };
    for (const naive of expansion.naives) add(naive, clock.toInstant(naive));
  }
  const startTime = start - Math.floor(start / MS_DAY) * MS_DAY;
  for (const m of series.rdates) {
    const { instant, naive } = momentTimes(series, clock, m, startTime);
    add(naive, instant);
  }
  return found;
}

function removeExdates(series: Series, clock: ZoneClock, found: Map<number, number>, start: number): void {
  const days = new Set<number>();
  const startTime = start - Math.floor(start / MS_DAY) * MS_DAY;
  for (const m of series.exdates) {
    if (m.kind === 'date') days.add(m.day);
    else found.delete(momentTimes(series, clock, m, startTime).instant);
  }
  if (!days.size) return;
  for (const [key, naive] of found) if (days.has(Math.floor(naive / MS_DAY))) found.delete(key);
}

function occurrences(series: Series, bounds: Bounds, to = LAST_NAIVE): Expanded {
  const clock = new ZoneClock(series.tz);
  const start = parseNaive(series.start)!;
  const found = gather(series, clock, bounds, start);
  if (!(found instanceof Map)) return { ok: false, error: found };
  removeExdates(series, clock, found, start);
  const from = bounds.from ?? -Infinity;
  const kept = [...found].filter(([, naive]) => naive >= from && naive <= to).sort((a, b) => a[0] - b[0]);
  if (kept.length > bounds.max) return fail(-1, `recurrence: the series has more than ${bounds.max} occurrences${bounds.window ? bounds.within : ''}`);
  const utcOf = (key: number, naive: number) => formatNaive(series.allDay ? clock.toInstant(naive) : key);
  return { ok: true, occurrences: kept.map(([key, naive]) => ({ start: formatNaive(naive), utc: utcOf(key, naive) })) };
}

/**
 * All the series' occurrences: rules with COUNT or UNTIL whole, rules without either up to
 * `horizonMonths` after `now`; an error past `maxOccurrences` (or for a rule that matches too rarely).
 */
export function expandSeries(series: Series, opts: ExpandOptions): Expanded {
  const months = opts.horizonMonths ?? DEFAULT_HORIZON_MONTHS;
  const max = opts.maxOccurrences ?? DEFAULT_MAX_OCCURRENCES;
  const clock = new ZoneClock(series.tz);
  const now = formatNaive(clock.toNaive(opts.now.getTime()));
  const horizon = parseNaive(addMonths(now, months))!;
  const end = Math.max(horizon, parseNaive(series.start)!);
  return occurrences(series, { end, window: false, max, within: ` in the next ${months} months` });
}

/** The occurrences whose wall time lies from `from` to `to` (inclusive); an error past `maxOccurrences` in them. */
export function occurrencesBetween(series: Series, from: Wall, to: Wall, opts: { maxOccurrences?: number } = {}): Expanded {
  const a = parseNaive(from);
  const b = parseNaive(to);
  if (a === undefined || b === undefined) throw new RangeError(`Invalid wall time: ${a === undefined ? from : to}`);
  const max = opts.maxOccurrences ?? DEFAULT_MAX_OCCURRENCES;
  return occurrences(series, { from: a, end: b, window: true, max, within: ' in the dates asked for' }, b);
}
