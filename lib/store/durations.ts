// How long the events a count bucket counts may last. Each bucket (lib/store/keys.ts, bucketOf)
// carries `ds`, a set of powers of two (as exponents): every event written into the bucket adds
// one at least as long as its duration, so the largest bounds every event the bucket counts and a
// list total needs no other read to bound its end-date corrections (lib/logic/event-totals.ts).
// A set only grows by ADD, which commutes: concurrent writers need no read and no condition.
import type { EventItem } from './items.js';

export const DURATIONS = 'ds';

/** The exponent of the smallest power of two of seconds at least `seconds` long. */
export const durationClass = (seconds: number): number => Math.ceil(Math.log2(Math.max(1, seconds)));

/** The seconds a class stands for. */
export const classSeconds = (k: number): number => 2 ** k;

/** An event's duration in whole seconds (its stored walls are UTC). */
export const eventSeconds = (e: Pick<EventItem, 'utcStart' | 'utcEnd'>): number =>
  Math.ceil((Date.parse(`${e.utcEnd.replace(' ', 'T')}Z`) - Date.parse(`${e.utcStart.replace(' ', 'T')}Z`)) / 1000);

/**
 * The bound of some buckets: the longest class they carry, in seconds; undefined when one that
 * counts events carries none (a bucket written before buckets carried durations).
 */
export function bucketsBound(buckets: readonly Record<string, unknown>[], counts: (b: Record<string, unknown>) => boolean): number | undefined {
  let top = -1;
  for (const b of buckets) {
    const ds = b[DURATIONS];
    const classes = ds instanceof Set ? [...ds] : Array.isArray(ds) ? ds : [];
    if (!classes.length) {
      if (counts(b)) return undefined;
      continue;
    }
    for (const k of classes) top = Math.max(top, Number(k));
  }
  return top < 0 ? 0 : classSeconds(top);
}
