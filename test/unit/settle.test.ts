// Work a request runs side by side (lib/settle.ts): a failure answers only once all of it settled.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { waitAll, withSideWork } from '../../lib/settle.js';

describe('waitAll', () => {
  it('gives every value in order', async () => {
    const [a, b] = await waitAll([sleep(5).then(() => 'a'), Promise.resolve(2)]);
    expect([a, b]).toEqual(['a', 2]);
  });

  it('rejects with the first failure in order, once the slowest sibling has settled', async () => {
    let slowDone = false;
    const slow = sleep(20).then(() => (slowDone = true));
    const started = Date.now();
    await expect(waitAll([Promise.reject(new Error('first')), slow, Promise.reject(new Error('second'))])).rejects.toThrow('first');
    expect(slowDone).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });
});

describe('withSideWork', () => {
  it('answers a failure only once the work started aside has settled, and reports only the failure', async () => {
    let asideDone = false;
    await expect(
      withSideWork(async (side) => {
        side.start(sleep(20).then(() => (asideDone = true)));
        side.start(Promise.reject(new Error('never awaited')));
        throw new Error('main line');
      }),
    ).rejects.toThrow('main line');
    expect(asideDone).toBe(true);
  });

  it('gives the main line\'s answer', async () => {
    expect(await withSideWork(async (side) => (await side.start(sleep(1).then(() => 3))) + 1)).toBe(4);
  });
});
