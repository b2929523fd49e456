// The request's scope (lib/scope.ts): values set for a call, kept apart between requests that run
// at once in one process, as the local gateway runs them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { handedOneAtATime, requestScopes, scopedValue } from '../../lib/scope.js';

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

describe('requestScopes, in a process handed one request at a time', () => {
  it('holds a request\'s values without an AsyncLocalStorage, nested runs restored, nothing left for the next request', async () => {
    const scopes = requestScopes(true);
    const a = scopes.value<number>('a');
    const b = scopes.value<string>('b');
    const first = await scopes.request(() =>
      a.run(1, async () => {
        await sleep(1);
        const inner = await b.run('x', async () => {
          await sleep(1);
          return [a.get(), b.get()];
        });
        return [inner, [a.get(), b.get()]];
      }),
    );
    expect(first).toEqual([
      [1, 'x'],
      [1, undefined],
    ]);
    // A request that sets nothing sees nothing of the one before (as `If-Match` is set only when sent).
    expect(await scopes.request(async () => [a.get(), b.get()])).toEqual([undefined, undefined]);
    expect(a.get()).toBeUndefined();
    expect(scopes.isolated()).toBe(false);
  });

  it('restores the values when a run throws', () => {
    const scopes = requestScopes(true);
    const a = scopes.value<number>('a');
    expect(() => a.run(1, () => { throw new Error('no'); })).toThrow('no');
    expect(a.get()).toBeUndefined();
  });

  it('keeps work that outlives its request on its own values when the next request comes, and isolates every later one', async () => {
    const scopes = requestScopes(true);
    const v = scopes.value<string>('v');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let leftover!: Promise<string | undefined>;
    // Request A answers while its work goes on (an early timeout answer).
    await scopes.request(() =>
      v.run('A', async () => {
        leftover = (async () => {
          await gate;
          await sleep(1);
          return v.get();
        })();
        scopes.outlive(leftover);
        return 'answered';
      }),
    );
    expect(scopes.isolated()).toBe(false);
    const b = scopes.request(() =>
      v.run('B', async () => {
        release();
        await leftover;
        await sleep(1);
        return v.get();
      }),
    );
    expect(scopes.isolated()).toBe(true);
    const c = scopes.request(async () => {
      await sleep(2);
      return v.get();
    });
    expect(await Promise.all([leftover, b, c])).toEqual(['A', 'B', undefined]);
  });

  it('keeps two requests apart when they overlap without warning', async () => {
    const scopes = requestScopes(true);
    const v = scopes.value<string>('v');
    const one = (name: string, delays: number[]) =>
      scopes.request(() =>
        v.run(name, async () => {
          const seen: (string | undefined)[] = [];
          for (const ms of delays) {
            await sleep(ms);
            seen.push(v.get());
          }
          return seen;
        }),
      );
    const [x, y] = await Promise.all([one('x', [5, 1, 5]), one('y', [1, 5, 1])]);
    expect(x).toEqual(['x', 'x', 'x']);
    expect(y).toEqual(['y', 'y', 'y']);
  });

  it('in a process that runs requests at once, a request starts from its caller\'s values', async () => {
    const scopes = requestScopes(false);
    const writer = scopes.value<string>('writer');
    expect(await writer.run('gateway', () => scopes.request(async () => writer.get()))).toBe('gateway');
    expect(scopes.isolated()).toBe(true);
  });

  it('is handed one request at a time only by a standard Lambda runtime', () => {
    expect(handedOneAtATime({ AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001' })).toBe(true);
    expect(handedOneAtATime({ AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001', AWS_LAMBDA_MAX_CONCURRENCY: '1' })).toBe(true);
    expect(handedOneAtATime({ AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001', AWS_LAMBDA_MAX_CONCURRENCY: '64' })).toBe(false);
    expect(handedOneAtATime({})).toBe(false);
  });
});
