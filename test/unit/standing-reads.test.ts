// Reads kept while the table's change counter stands: kept per counter state, an eventually
// consistent read only once the counter has settled, a failed or too large read never, at most 128 of them; an
// eventually consistent read waits for the counter only when the last state seen is its kept one.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { whileStanding } from '#lib/store/standing-reads.js';
import type { Validator } from '#lib/store/validators.js';

const saved = process.env.REVALIDATE_SETTLE_SECONDS;
beforeEach(() => {
  // Settled one second (the clock margin) after the counter last moved.
  process.env.REVALIDATE_SETTLE_SECONDS = '0';
});
afterEach(() => {
  if (saved === undefined) delete process.env.REVALIDATE_SETTLE_SECONDS;
  else process.env.REVALIDATE_SETTLE_SECONDS = saved;
});

let unique = 0;
const fresh = () => `standing-${++unique}`;
const MINUTE_AGO = Date.now() - 60_000;
const old = (stamp: string): Validator => ({ stamp, last: MINUTE_AGO });

/** A read that counts its calls and gives its call number. */
function counted() {
  let calls = 0;
  return { read: () => Promise.resolve(++calls), calls: () => calls };
}

describe('whileStanding', () => {
  it('gives the kept read while the counter shows the state it was read at, and reads again once it moved', async () => {
    const key = fresh();
    const r = counted();
    expect(await whileStanding(key, Promise.resolve(old('1.0')), r.read, true)).toBe(1);
    expect(await whileStanding(key, Promise.resolve(old('1.0')), r.read, true)).toBe(1);
    expect(await whileStanding(key, Promise.resolve(old('1.1')), r.read, true)).toBe(2);
    expect(await whileStanding(key, Promise.resolve(old('1.1')), r.read, true)).toBe(2);
    // The same counts bumped at another time are another state.
    expect(await whileStanding(key, Promise.resolve({ stamp: '1.1', last: Date.now() - 30_000 }), r.read, true)).toBe(3);
    expect(r.calls()).toBe(3);
  });

  it('keeps an eventually consistent read only once the counter has settled', async () => {
    const key = fresh();
    const r = counted();
    // Moved a moment from now, as a writer's clock ahead of this one may say: not settled for a while yet.
    const moving: Validator = { stamp: '2.0', last: Date.now() + 60_000 };
    expect(await whileStanding(key, Promise.resolve(moving), r.read, false)).toBe(1);
    expect(await whileStanding(key, Promise.resolve(moving), r.read, false)).toBe(2);
    // A consistent read sent after the counter's qualifies at once.
    expect(await whileStanding(key, Promise.resolve(moving), r.read, true)).toBe(3);
    expect(await whileStanding(key, Promise.resolve(moving), r.read, true)).toBe(3);
    const still = old('2.1');
    expect(await whileStanding(key, Promise.resolve(still), r.read, false)).toBe(4);
    expect(await whileStanding(key, Promise.resolve(still), r.read, false)).toBe(4);
  });

  it('reads without keeping when the counter could not be read', async () => {
    const key = fresh();
    const r = counted();
    expect(await whileStanding(key, Promise.resolve(undefined), r.read, true)).toBe(1);
    expect(await whileStanding(key, Promise.resolve(undefined), r.read, true)).toBe(2);
  });

  it('hands a read that fails before the counter answers to its caller, not to the process', async () => {
    const key = fresh();
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      let release!: (v: Validator) => void;
      const waiting = whileStanding(key, new Promise<Validator>((r) => (release = r)), () => Promise.reject(new Error('throttled')), false);
      await new Promise((r) => setTimeout(r, 20));
      release(old('3.2'));
      await expect(waiting).rejects.toThrow('throttled');
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });

  it('does not keep a failed read', async () => {
    const key = fresh();
    const state = old('3.0');
    await expect(whileStanding(key, Promise.resolve(state), () => Promise.reject(new Error('throttled')), true)).rejects.toThrow('throttled');
    expect(await whileStanding(key, Promise.resolve(state), () => Promise.resolve('read again'), true)).toBe('read again');
  });

  it('does not keep a read that says it is too large to hold', async () => {
    const key = fresh();
    const r = counted();
    const small = (n: number) => n > 1;
    const state = old('3.1');
    expect(await whileStanding(key, Promise.resolve(state), r.read, true, small)).toBe(1);
    expect(await whileStanding(key, Promise.resolve(state), r.read, true, small)).toBe(2);
    expect(await whileStanding(key, Promise.resolve(state), r.read, true, small)).toBe(2);
  });

  it('keeps at most 128 reads, dropping the oldest', async () => {
    const state = old('4.0');
    const keys = Array.from({ length: 129 }, fresh);
    for (const key of keys) await whileStanding(key, Promise.resolve(state), () => Promise.resolve(key), true);
    expect(await whileStanding(keys[0]!, Promise.resolve(state), () => Promise.resolve('again'), true)).toBe('again');
    expect(await whileStanding(keys[128]!, Promise.resolve(state), () => Promise.resolve('again'), true)).toBe(keys[128]);
  });

  it('sends an eventually consistent read beside the counter unless the last state seen says its kept read stands', async () => {
    const [key, other] = [fresh(), fresh()];
    let calls = 0;
    const read = () => Promise.resolve(++calls);
    const never = () => new Promise<Validator>(() => {});
    await whileStanding(key, Promise.resolve(old('5.0')), read, false);
    // Kept at the state last seen: it waits for the counter, without reading meanwhile.
    let release!: (v: Validator) => void;
    const waiting = whileStanding(key, new Promise<Validator>((r) => (release = r)), read, false);
    await Promise.resolve();
    expect(calls).toBe(1);
    release(old('5.0'));
    expect(await waiting).toBe(1);
    // A request saw the counter move: the kept read no longer stands, so the read goes out at once.
    await whileStanding(other, Promise.resolve(old('5.1')), read, false);
    expect(calls).toBe(2);
    void whileStanding(key, never(), read, false);
    expect(calls).toBe(3);
    // So does a read never kept.
    void whileStanding(fresh(), never(), read, false);
    expect(calls).toBe(4);
  });
});
