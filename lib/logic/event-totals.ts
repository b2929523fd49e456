// The total of a list of events: from the per-month count buckets (lib/logic/event-writes.ts), plus
// corrections that read at most the events of the window's edge days; else from count queries.
import { bucketMonth, bucketOf } from '#lib/store/keys.js';
import type { LangStats } from '#lib/store/stats.js';
import { bucketsBound } from '#lib/store/durations.js';
import { waitAll } from '#lib/runtime/settle.js';
import { total } from '#lib/store/list-pages.js';
import type { EventSource } from './event-sources.js';
import { HIGH, type Window } from './event-window.js';
import { countBuckets } from '#lib/store/partitions.js';
import type { Test } from '#lib/store/list-index.js';
import type { RequestContext } from '#lib/contract/request.js';

type Counter = NonNullable<RequestContext['counter']>;

/** A bucket's day counter attribute (`dDD`). */
const DAY = /^d\d\d$/;

async function indexCount(partition: string, from: string, to: string, end?: Test): Promise<number> {
  if (from > to) return 0;
  return total([{ partition, from, to, ...(end ? { where: [end] } : {}) }]);
}

function shiftUtc(wall: string, seconds: number): string {
  const d = new Date(`${wall.replace(' ', 'T')}Z`);
  d.setUTCSeconds(d.getUTCSeconds() + seconds);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The events of one partition in the window, without reading them: the month buckets' day
 * counters cover whole UTC days; the index is read only for the window's partial first and last
 * days and for events that start inside the window but end outside it (those start within the
 * longest event duration before the end bound, which the buckets themselves bound), and only
 * where the buckets count events on those days: the corrections wait for the buckets. Window
 * bounds are never equal to a real sort key (`wall` or `wall#\uffff`), so inclusive BETWEEN
 * ranges count strictly below or above them. `legacy` gives the language's longest duration when
 * a bucket carries none.
 */
async function bucketTotal(partition: string, w: Window, legacy: () => Promise<number>, counter: Counter | undefined): Promise<number> {
  const from = w.from || '0000-01-01 00:00:00';
  const to = w.to === HIGH ? '9999-12-31 23:59:59' : w.to;
  if (from > to) return 0;
  const { key } = bucketOf(partition, from);
  const [firstMonth, lastMonth] = [bucketMonth(from), bucketMonth(to)];
  const [fromDay, toDay] = [from.slice(0, 10), to.slice(0, 10)];
  // Every month's bucket and its shards (their counts add up).
  const buckets = await countBuckets(key.pk, from, to, counter);
  // A day holds a counter, or (in the search index's buckets) the set of its events' ids.
  const dayCount = (v: unknown) => (v instanceof Set ? v.size : Number(v));
  // Every day's count, also to tell which days hold events (and which buckets count any).
  const days = new Map<string, number>();
  const counting = new Set<Record<string, unknown>>();
  let n = 0;
  for (const b of buckets) {
    const month = bucketMonth(String(b.sk));
    const whole = month !== firstMonth && month !== lastMonth;
    for (const [k, v] of Object.entries(b)) {
      if (!DAY.test(k)) continue;
      const day = `${month}-${k.slice(1)}`;
      const count = dayCount(v);
      days.set(day, (days.get(day) ?? 0) + count);
      if (count > 0) counting.add(b);
      if ((whole && b.n === undefined) || (!whole && day >= fromDay && day <= toDay)) n += count;
    }
    if (whole && b.n !== undefined) n += Number(b.n);
  }
  const bound = bucketsBound(buckets, (b) => counting.has(b));
  const startsBetween = (lo: string, hi: string) => {
    const [a, z] = [lo.slice(0, 10), hi.slice(0, 10)];
    for (const [day, count] of days) if (count > 0 && day >= a && day <= z) return true;
    return false;
  };
  const [partial, ends] = await waitAll([
    partialDays(partition, w, from, to, startsBetween),
    endCorrections(partition, w, from, to, bound === undefined ? legacy : async () => bound, startsBetween),
  ]);
  return ends === undefined ? 0 : n - partial - ends;
}

/** The events of the buckets' partial first and last days that are outside the window. */
async function partialDays(partition: string, w: Window, from: string, to: string, startsBetween: (lo: string, hi: string) => boolean): Promise<number> {
  const [fromDay, toDay] = [from.slice(0, 10), to.slice(0, 10)];
  const partial: Promise<number>[] = [];
  // A range whose bounds are equal holds no key (keys are `wall#id`), and a day the buckets show
  // empty holds none either: no request for them.
  const dayStart = `${fromDay} 00:00:00`;
  const dayEnd = `${toDay} 23:59:59#${HIGH}`;
  if (w.from && from !== dayStart && startsBetween(dayStart, dayStart)) partial.push(indexCount(partition, dayStart, from));
  if (w.to !== HIGH && to !== dayEnd && startsBetween(dayEnd, dayEnd)) partial.push(indexCount(partition, to, dayEnd));
  return (await waitAll(partial)).reduce((a, b) => a + b, 0);
}

/**
 * What the day counters count that the window's end conditions leave out: the events that end
 * outside it. Undefined when the end bounds leave nothing at all. `startsBetween` says whether
 * the buckets count events starting in a range: a range they show empty is not read.
 */
async function endCorrections(
  partition: string,
  w: Window,
  from: string,
  to: string,
  maxDuration: () => Promise<number>,
  startsBetween: (lo: string, hi: string) => boolean,
): Promise<number | undefined> {
  // The events subtracted for each end bound must not overlap, or one is subtracted twice: of
  // two upper bounds only the tighter one counts, and bounds that leave no end time leave nothing.
  let { endAtMost, endBefore } = w;
  if (endAtMost && endBefore) {
    if (endBefore <= endAtMost) endAtMost = undefined;
    else endBefore = undefined;
  }
  if (w.endAfter && ((endAtMost && w.endAfter >= endAtMost) || (endBefore && w.endAfter >= endBefore))) return undefined;
  const ends: Promise<number>[] = [];
  // The longest duration is read only for an end bound that needs it (it may be a request).
  let longest: Promise<number> | undefined;
  const since = async (bound: string) => {
    const lo = shiftUtc(bound, -(await (longest ??= maxDuration())));
    return lo > from ? lo : from;
  };
  const over = (bound: string, is: '>' | '>=') => since(bound).then((lo) => (startsBetween(lo, to) ? indexCount(partition, lo, to, { attr: 'utcEnd', is, value: bound }) : 0));
  if (endAtMost) ends.push(over(endAtMost, '>'));
  if (endBefore) ends.push(over(endBefore, '>='));
  if (w.endAfter) {
    const upTo = `${w.endAfter}#${HIGH}`;
    const hi = to < upTo ? to : upTo;
    ends.push(startsBetween(from, hi) ? indexCount(partition, from, hi, { attr: 'utcEnd', is: '<=', value: w.endAfter }) : Promise.resolve(0));
  }
  return (await waitAll(ends)).reduce((a, b) => a + b, 0);
}

/**
 * A list's total, with one value per filter (several are counted from the ids they list, as
 * lib/logic/event-list.ts reads them): each status partition's count comes from its buckets when
 * nothing but the window filters it, else from a count query. `counter`: the request's change
 * counter, read as it is now, while which the buckets read before stand (lib/store/partitions.ts).
 */
export async function listTotal(src: EventSource[], w: Window | undefined, stats: () => Promise<LangStats>, counter?: Counter): Promise<number> {
  const seconds = () => stats().then((s) => s.seconds ?? 0);
  const counts = await waitAll(src.map((s) => (s.counted && w ? bucketTotal(s.partition, w, seconds, counter) : total([s]))));
  return counts.reduce((a, b) => a + b, 0);
}
