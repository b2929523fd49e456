// The request's scope (lib/runtime/scope.ts): values set for a call, kept apart between requests that run
// at once in one process, as the local gateway runs them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { handedOneAtATime, requestScopes, scopedValue, type RequestScopes, type ScopedValue } from '#lib/runtime/scope.js';

const ROOT = join(import.meta.dirname, '../..');

/** Two runs of `v` at once, interleaved, each inside `request`: each sees only its own value. */
async function expectApart(v: ScopedValue<string>, request: (fn: () => Promise<(string | undefined)[]>) => Promise<(string | undefined)[]>) {
  const one = (name: string, delays: number[]) =>
    request(() =>
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
}

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

  it("keeps the caller's other values in a nested run, and restores the outer value after it", () => {
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
    await expectApart(scopedValue<string>('request'), (fn) => fn());
  });

  it("is the only AsyncLocalStorage of the functions' code (each one adds to every promise)", () => {
    const files = readdirSync(join(ROOT, 'lib'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const owners = files.filter((f) => /new AsyncLocalStorage\b/.test(readFileSync(join(ROOT, 'lib', f), 'utf8')));
    expect(owners).toEqual(['runtime/scope.ts']);
  });
});

describe('requestScopes, in a process handed one request at a time', () => {
  it("holds a request's values without an AsyncLocalStorage, nested runs restored, nothing left for the next request", async () => {
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
    // A request that sets nothing sees nothing of the one before.
    expect(await scopes.request(async () => [a.get(), b.get()])).toEqual([undefined, undefined]);
    expect(a.get()).toBeUndefined();
    expect(scopes.isolated()).toBe(false);
  });

  it('restores the values when a run throws or rejects, and when a request throws', async () => {
    const scopes = requestScopes(true);
    const a = scopes.value<number>('a');
    expect(() =>
      a.run(1, () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    await expect(
      scopes.request(() =>
        a.run(2, async () => {
          await sleep(1);
          throw new Error('late');
        }),
      ),
    ).rejects.toThrow('late');
    expect(() =>
      scopes.request(() => {
        throw new Error('at once');
      }),
    ).toThrow('at once');
    expect(a.get()).toBeUndefined();
    // Nothing was left running: the next request still uses the variable.
    expect(await scopes.request(async () => a.get())).toBeUndefined();
    expect(scopes.isolated()).toBe(false);
  });

  it("starts a request from its caller's values", async () => {
    const scopes = requestScopes(true);
    const writer = scopes.value<string>('writer');
    expect(await writer.run('harness', () => scopes.request(async () => writer.get()))).toBe('harness');
  });

  /** Request A answers while `leftover` goes on; it reads `v` when `gate` opens. */
  async function leaveWork(scopes: RequestScopes, v: ScopedValue<string>, how: 'outlive' | 'work') {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let leftover!: Promise<(string | undefined)[]>;
    await scopes.request(() =>
      v.run('A', async () => {
        // Work still out when the request ends, as a DynamoDB request abandoned by a failed sibling.
        const out = how === 'work' ? scopes.work(sleep(5)) : Promise.resolve();
        leftover = (async () => {
          await out;
          await gate;
          await sleep(1);
          const seen = [v.get()];
          // A run of the work left behind starts from its own values.
          seen.push(await v.run('A2', async () => (await sleep(1), v.get())));
          return [...seen, v.get()];
        })();
        if (how === 'outlive') scopes.outlive();
        return 'answered';
      }),
    );
    return { release, leftover };
  }

  for (const how of ['outlive', 'work'] as const) {
    it(`keeps work left running (${how === 'outlive' ? 'after a timeout answer' : 'still out at the end'}) on its request's values, and isolates every later request`, async () => {
      const scopes = requestScopes(true);
      const v = scopes.value<string>('v');
      const { release, leftover } = await leaveWork(scopes, v, how);
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
      expect(await Promise.all([leftover, b, c])).toEqual([['A', 'A2', 'A'], 'B', undefined]);
    });
  }

  it('does not isolate requests when their work settled before they ended', async () => {
    const scopes = requestScopes(true);
    const v = scopes.value<string>('v');
    await scopes.request(() => v.run('A', () => scopes.work(sleep(2))));
    expect(await scopes.request(async () => v.get())).toBeUndefined();
    expect(scopes.isolated()).toBe(false);
  });

  it('does not isolate requests for work started before a run and awaited after it', async () => {
    const scopes = requestScopes(true);
    const v = scopes.value<string>('v');
    await scopes.request(async () => {
      const aside = scopes.work(sleep(5));
      await v.run('inner', async () => sleep(1));
      await aside;
    });
    expect(await scopes.request(async () => v.get())).toBeUndefined();
    expect(scopes.isolated()).toBe(false);
  });

  it('keeps the variable for a run still open when its request ends', async () => {
    const scopes = requestScopes(true);
    const v = scopes.value<string>('v');
    let leftover!: Promise<string | undefined>;
    await scopes.request(async () => {
      // Waiting on nothing registered: only the run left open shows the work left behind.
      leftover = v.run('A', async () => (await sleep(10), v.get()));
      await Promise.race([leftover, sleep(1)]);
    });
    const b = scopes.request(() => v.run('B', async () => (await sleep(20), v.get())));
    expect(await Promise.all([leftover, b])).toEqual(['A', 'B']);
    expect(scopes.isolated()).toBe(true);
  });

  it('keeps two requests apart when they overlap without warning', async () => {
    const scopes = requestScopes(true);
    await expectApart(scopes.value<string>('v'), scopes.request);
  });

  it('isolates later requests once two runs of one request overlapped', async () => {
    const scopes = requestScopes(true);
    const v = scopes.value<number>('v');
    await scopes.request(() => Promise.all([1, 2].map((n) => v.run(n, () => sleep(n)))));
    expect(scopes.isolated()).toBe(false);
    expect(await scopes.request(async () => v.get())).toBeUndefined();
    expect(scopes.isolated()).toBe(true);
  });

  it("in a process that runs requests at once, a request starts from its caller's values", async () => {
    const scopes = requestScopes(false);
    const writer = scopes.value<string>('writer');
    expect(await writer.run('gateway', () => scopes.request(async () => writer.get()))).toBe('gateway');
    expect(scopes.isolated()).toBe(true);
  });

  it('is handed one request at a time only by a standard Lambda runtime', () => {
    expect(handedOneAtATime({ AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001' })).toBe(true);
    expect(handedOneAtATime({ AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001', AWS_LAMBDA_MAX_CONCURRENCY: '64' })).toBe(false);
    expect(handedOneAtATime({ AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001', AWS_LAMBDA_MAX_CONCURRENCY: '1' })).toBe(false);
    expect(handedOneAtATime({ AWS_LAMBDA_RUNTIME_API: '' })).toBe(false);
    expect(handedOneAtATime({})).toBe(false);
  });
});
