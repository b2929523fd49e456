// The local runtime's invocation slots: at most `size` run at once, the rest wait in order, and a
// wait that runs out leaves the queue without taking (or losing) a slot.
import { describe, expect, it } from 'vitest';
import { Slots, slotCount } from '#lib/local/slots.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('invocation slots', () => {
  it('run at most `size` at once and hand freed slots to the waiting in order', async () => {
    const slots = new Slots(2);
    const a = await slots.take(1_000);
    const b = await slots.take(1_000);
    expect(slots.load).toEqual({ running: 2, waiting: 0 });
    const order: string[] = [];
    const c = slots.take(1_000).then((r) => (order.push('c'), r));
    const d = slots.take(1_000).then((r) => (order.push('d'), r));
    await tick();
    expect(slots.load).toEqual({ running: 2, waiting: 2 });
    a!();
    a!(); // a second release frees nothing more
    await tick();
    expect(order).toEqual(['c']);
    expect(slots.load).toEqual({ running: 2, waiting: 1 });
    b!();
    const [rc, rd] = await Promise.all([c, d]);
    expect(order).toEqual(['c', 'd']);
    rc!();
    rd!();
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it('give up a wait that runs out, and a slot freed meanwhile goes to the next', async () => {
    const slots = new Slots(1);
    const held = await slots.take(1_000);
    const late = await slots.take(20);
    expect(late).toBeUndefined();
    expect(slots.load).toEqual({ running: 1, waiting: 0 });
    const next = slots.take(1_000);
    held!();
    const got = await next;
    expect(got).toBeTypeOf('function');
    got!();
    expect(slots.load).toEqual({ running: 0, waiting: 0 });
  });

  it('are sized by LOCAL_CONCURRENCY, refusing what is not a positive whole number', () => {
    expect(slotCount({ LOCAL_CONCURRENCY: '3' })).toBe(3);
    expect(slotCount({})).toBeGreaterThanOrEqual(8);
    for (const bad of ['0', '-1', '1.5', 'many']) expect(() => slotCount({ LOCAL_CONCURRENCY: bad })).toThrow(/LOCAL_CONCURRENCY/);
  });
});
