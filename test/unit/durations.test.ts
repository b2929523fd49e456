import { describe, expect, it } from 'vitest';
import { bucketsBound, classSeconds, durationClass, eventSeconds } from '#lib/store/durations.js';

describe('bucket duration classes', () => {
  it('a class is the smallest power of two of seconds at least the duration', () => {
    for (const seconds of [0, 1, 2, 3, 3600, 86_400, 86_401, 40 * 86_400, 2 ** 30]) {
      const k = durationClass(seconds);
      expect(classSeconds(k)).toBeGreaterThanOrEqual(seconds);
      expect(seconds <= 1 || classSeconds(k - 1) < seconds).toBe(true);
    }
  });

  it('an event lasts from its UTC start to its UTC end, in whole seconds', () => {
    expect(eventSeconds({ utcStart: '2026-01-01 10:00:00', utcEnd: '2026-01-02 10:00:01' })).toBe(86_401);
    expect(eventSeconds({ utcStart: '2026-03-01 00:00:00', utcEnd: '2026-03-01 00:00:00' })).toBe(0);
    // Walls an item written by hand may hold: an instant, never NaN (which DynamoDB cannot store).
    expect(eventSeconds({ utcStart: 'garbage', utcEnd: '2026-03-01 00:00:00' })).toBe(0);
    expect(eventSeconds({ utcStart: '2026-03-01 00:00:00', utcEnd: 1767225600 as unknown as string })).toBe(0);
  });

  it('buckets are bounded by their longest class; a bucket that counts events without classes has no bound', () => {
    const counts = (b: Record<string, unknown>) => Number(b.d01 ?? 0) > 0;
    expect(
      bucketsBound(
        [
          { ds: new Set([3, 10]), d01: 1 },
          { ds: new Set([7]), d01: 2 },
        ],
        counts,
      ),
    ).toBe(1024);
    expect(bucketsBound([{ ds: [4], d01: 1 }], counts)).toBe(16);
    // Empty buckets (their events moved away) bound nothing and need nothing.
    expect(bucketsBound([{ d01: 0 }], counts)).toBe(0);
    expect(bucketsBound([], counts)).toBe(0);
    expect(bucketsBound([{ ds: new Set([3]), d01: 1 }, { d01: 1 }], counts)).toBeUndefined();
  });
});
