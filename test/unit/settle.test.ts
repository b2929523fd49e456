// Work a request runs side by side (lib/runtime/settle.ts): a failure answers only once all of it settled.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { waitAll, withSideWork } from '#lib/runtime/settle.js';

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

  it("gives the main line's answer", async () => {
    expect(await withSideWork(async (side) => (await side.start(sleep(1).then(() => 3))) + 1)).toBe(4);
  });
});

describe('request code', () => {
  it('runs side-by-side work through lib/runtime/settle.ts, never a bare Promise.all or Promise.race', () => {
    const root = join(import.meta.dirname, '../../lib');
    // The stream consumer and the local runtime serve no request; the early timeout races on purpose.
    const allowed = (f: string) => f.startsWith('stream/') || f.startsWith('local/') || f === 'runtime/deadline.ts' || f === 'runtime/settle.ts';
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !allowed(f));
    const bare = files.filter((f) => /Promise\.(all|race|any)\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(files.length).toBeGreaterThan(50);
    expect(bare).toEqual([]);
  });
});
