// The request's scope (lib/scope.ts): values set for a call, kept apart between requests that run
// at once in one process, as the local gateway runs them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { scopedValue } from '../../lib/scope.js';

const ROOT = join(import.meta.dirname, '../..');

describe('scopedValue', () => {
  it('is unset outside a run and set inside it, across awaits', async () => {
    const v = scopedValue<string>('v');
    expect(v.get()).toBeUndefined();
    const seen = await v.run('a', async () => {
      await sleep(1);
      return v.get();
    });
    expect(seen).toBe('a');
    expect(v.get()).toBeUndefined();
  });

  it('keeps the caller\'s other values in a nested run, and restores the outer value after it', () => {
    const a = scopedValue<number>('a');
    const b = scopedValue<number>('b');
    const trail: (number | undefined)[][] = [];
    a.run(1, () => {
      b.run(2, () => {
        trail.push([a.get(), b.get()]);
        a.run(3, () => trail.push([a.get(), b.get()]));
        trail.push([a.get(), b.get()]);
      });
      trail.push([a.get(), b.get()]);
    });
    expect(trail).toEqual([
      [1, 2],
      [3, 2],
      [1, 2],
      [1, undefined],
    ]);
  });

  it('keeps concurrent runs apart', async () => {
    const v = scopedValue<string>('request');
    const one = async (name: string, delays: number[]) =>
      v.run(name, async () => {
        const seen: (string | undefined)[] = [];
        for (const ms of delays) {
          await sleep(ms);
          seen.push(v.get());
        }
        return seen;
      });
    const [x, y] = await Promise.all([one('x', [5, 1, 5]), one('y', [1, 5, 1])]);
    expect(x).toEqual(['x', 'x', 'x']);
    expect(y).toEqual(['y', 'y', 'y']);
  });

  it('is the only AsyncLocalStorage of the functions\' code (each one adds to every promise)', () => {
    const files = readdirSync(join(ROOT, 'lib'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const owners = files.filter((f) => /new AsyncLocalStorage\b/.test(readFileSync(join(ROOT, 'lib', f), 'utf8')));
    expect(owners).toEqual(['scope.ts']);
  });
});
