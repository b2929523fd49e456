// The worker pool every bounded fan-out uses: its limit, its order, and how it stops on a failure.
import { describe, expect, it } from 'vitest';
import { pool } from '#lib/runtime/pool.js';

/** A call that resolves when the test says so, counting how many run at once. */
function gate() {
  let running = 0;
  let most = 0;
  const waiting: (() => void)[] = [];
  const started: number[] = [];
  const fn = async (item: number, index: number) => {
    started.push(item);
    running++;
    most = Math.max(most, running);
    await new Promise<void>((r) => waiting.push(r));
    running--;
    return item * 10 + index;
  };
  const releaseAll = async () => {
    for (let i = 0; i < 1000 && (waiting.length || running); i++) {
      for (const r of waiting.splice(0)) r();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { fn, releaseAll, started, most: () => most, waiting };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('pool', () => {
  it('runs at most `limit` calls at once and answers in the items’ order', async () => {
    const g = gate();
    const done = pool([5, 4, 3, 2, 1, 0, 9], 3, g.fn);
    await tick();
    expect(g.started).toEqual([5, 4, 3]);
    // Released out of order: the later ones finish first, the answer keeps the items' order.
    g.waiting.splice(2, 1)[0]!();
    await tick();
    expect(g.started).toEqual([5, 4, 3, 2]);
    await g.releaseAll();
    expect(await done).toEqual([50, 41, 32, 23, 14, 5, 96]);
    expect(g.most()).toBe(3);
  });

  it('treats a limit below one as one, and an empty list as nothing to do', async () => {
    const g = gate();
    const done = pool([1, 2, 3], 0, g.fn);
    await g.releaseAll();
    expect(await done).toEqual([10, 21, 32]);
    expect(g.most()).toBe(1);
    expect(await pool([], 4, async () => 1)).toEqual([]);
  });

  it('starts nothing after a failure and rejects with the first one once the started calls have settled', async () => {
    const settled: number[] = [];
    const done = pool([0, 1, 2, 3, 4, 5], 2, async (item) => {
      if (item === 1) throw new Error('one failed');
      if (item === 2) throw new Error('two failed');
      await new Promise((r) => setTimeout(r, 20));
      settled.push(item);
      return item;
    });
    await expect(done).rejects.toThrow('one failed');
    // Item 0 was running when 1 failed: it finished before the answer; 2 and after never started.
    expect(settled).toEqual([0]);
  });
});
