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

/** A stored UTC wall as milliseconds since the epoch; NaN when it is not one (an item written by hand). */
const utcMs = (wall: unknown): number => (typeof wall === 'string' ? Date.parse(`${wall.replace(' ', 'T')}Z`) : Number.NaN);

/**
 * An event's duration in whole seconds (its stored walls are UTC); 0 when a wall cannot be read, so
 * that a malformed item counts as an instant rather than breaking what derives from it.
 */
export const eventSeconds = (e: Pick<EventItem, 'utcStart' | 'utcEnd'>): number => {
  const seconds = Math.ceil((utcMs(e.utcEnd) - utcMs(e.utcStart)) / 1000);
  return Number.isFinite(seconds) ? seconds : 0;
};

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
