// The guess of how long a step takes, which decides whether a write is still sent: it must come
// down again after a stall, although a refused step records no time.
import { describe, expect, it } from 'vitest';
import { Durations } from '#lib/store/retry.js';

describe('Durations', () => {
  it('guesses the longest recent step, never less than the floor', () => {
    const d = new Durations(50, 3);
    expect(d.estimate(0)).toBe(50);
    d.add(20, 0);
    expect(d.estimate(0)).toBe(50);
    d.add(400, 0);
    d.add(90, 0);
    expect(d.estimate(0)).toBe(400);
    // Only the last `keep` count: the 400 ms step falls out after three more.
    d.add(60, 0);
    d.add(70, 0);
    d.add(80, 0);
    expect(d.estimate(0)).toBe(80);
  });

  it('forgets a step older than its age limit, with no new step to push it out', () => {
    const d = new Durations(50, 10, 5_000);
    d.add(9_000, 1_000);
    expect(d.estimate(1_000)).toBe(9_000);
    expect(d.estimate(6_000)).toBe(9_000);
    expect(d.estimate(6_001)).toBe(50);
    d.add(120, 7_000);
    expect(d.estimate(7_000)).toBe(120);
  });

  it('without an age limit keeps a step until newer ones push it out (the per-request use)', () => {
    const d = new Durations(10, 2);
    d.add(9_000, 0);
    expect(d.estimate(3_600_000)).toBe(9_000);
  });
});
