// Many writers at once (a smaller `npm run bench:writes`): creates that all want one slug, PATCH
// storms on one event, and retry loops that run out of time. Through the handler modules against
// DynamoDB Local; what is asserted is correctness (exactly once, nothing half written, consistent
// derived items), never timing.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { ANSWER_MARGIN_MS, withDeadline } from '#lib/runtime/deadline.js';
import { Busy, ConflictError, Contention } from '#lib/contract/errors.js';
import { roleToken } from '../support/tokens.js';
import { matchRoute, toApiGatewayEvent } from '#lib/local/event.js';
import { lambdaContext, loadHandler } from '#lib/local/gateway.js';
import { invoke, type ApiResult } from '#lib/local/invoke.js';
import { put, transact } from '#lib/store/transactions.js';
import { fanOut, OutOfTime, withRetry } from '#lib/store/retry.js';
import { freeSlug } from '#lib/store/slugs.js';
import { keys, listKeys } from '#lib/store/keys.js';
import { indexAttributes } from '#lib/logic/event-writes.js';
import type { EventItem, LinkItem } from '#lib/store/items.js';
import { useFreshTable } from '../support/table.js';
import { storedItem } from '../support/stored.js';

useFreshTable('storms');

let token: string;
beforeAll(async () => {
  token = await roleToken('editor', 'storms-editor');
  // One write first: it registers the token's user and warms DynamoDB Local and the handlers up,
  // so that the storms below measure races, not a cold start.
  const warm = await call('POST', '/events', { title: 'Warm-up', start_date: at('2031-12', 1, 10), end_date: at('2031-12', 1, 11) });
  expect(warm.status).toBe(201);
  expect((await call('PATCH', `/events/${warm.body.id}`, { featured: true })).status).toBe(200);
});

const call = (method: string, path: string, body?: unknown, auth = true): Promise<ApiResult> => invoke(method, 'en', path, { body, token: auth ? token : undefined });

/**
 * A write through its handler module with the editor's token, as Lambda would run it with a
 * timeout of `timeoutMs`. The storms give their functions a minute: what they check is what was
 * written, which must not depend on how fast the machine running the tests is (the function's
 * real timeout is the benchmark's business, and the last tests here shorten it on purpose).
 */
async function write(method: string, path: string, body: unknown, timeoutMs = 60_000): Promise<{ status: number; body: any }> {
  const url = `/en/${config().namespace}/events/v1${path}`;
  const match = matchRoute(method, url);
  const headers = { host: '127.0.0.1:3000', 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const event = toApiGatewayEvent({ method, url, headers, body: Buffer.from(JSON.stringify(body)) }, match);
  const handler = await loadHandler(match.handler);
  const result = (await handler(event, lambdaContext(match.op!.id, undefined, timeoutMs))) as APIGatewayProxyStructuredResultV2;
  return { status: result.statusCode ?? 200, body: JSON.parse(String(result.body)) };
}

/** Runs `fn` for 0..n-1, all at once. */
const storm = <T>(n: number, fn: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => fn(i)));

const at = (month: string, day: number, hour: number) => `${month}-${String(day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:00:00`;

/** The ids of a month's published events, as anonymous clients list them, and the list's total. */
async function listed(month: string, extra: Record<string, string | number> = {}): Promise<{ total: number; ids: number[] }> {
  const res = await invoke('GET', 'en', '/events', { query: { start_date: `${month}-01`, end_date: `${month}-28`, per_page: 50, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { total: res.body.total, ids: res.body.events.map((e: { id: number }) => e.id) };
}

/** Hooks on the shared client for a test: each sees every command before it is sent. */
type Hook = (command: string, input: Record<string, any>) => Promise<void> | void;
const hooks: Hook[] = [];
let hooked = false;
function hook(fn: Hook): void {
  if (!hooked) {
    hooked = true;
    db().middlewareStack.add(
      (next, context) => async (args) => {
        for (const h of [...hooks]) await h(String(context.commandName ?? ''), args.input as Record<string, any>);
        return next(args);
      },
      { step: 'initialize', name: 'stormsHooks' },
    );
  }
  hooks.push(fn);
}
afterEach(() => {
  hooks.length = 0;
});

/** A transaction item's key (its record's for a Put). */
const keyOfItem = (item: Record<string, any>) => {
  const op = item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck;
  return (op.Item ?? op.Key) as { pk: string; sk: string };
};

describe('creates that all want one slug', () => {
  it('all succeed, each stored once under its own slug: the bare slug, then -2, -3…', async () => {
    const n = 20;
    const month = '2032-01';
    const results = await storm(n, (i) => write('POST', '/events', { title: 'Storm Night', start_date: at(month, 1 + (i % 28), 18), end_date: at(month, 1 + (i % 28), 20) }));
    expect(results.map((r) => r.status)).toEqual(Array(n).fill(201));
    const ids = results.map((r) => r.body.id as number);
    const slugs = results.map((r) => r.body.slug as string);
    expect(new Set(ids).size).toBe(n);
    expect(new Set(slugs).size).toBe(n);
    // The first winner has the bare slug; contenders took numbered candidates, hardly skipping any.
    expect(slugs).toContain('storm-night');
    const numbers = slugs.map((s) => (s === 'storm-night' ? 1 : Number(/^storm-night-(\d+)$/.exec(s)?.[1])));
    expect(numbers.every((x) => Number.isInteger(x) && x >= 1 && x <= 2 * n)).toBe(true);
    const read = await storm(n, (i) => call('GET', `/events/by-slug/${slugs[i]}`, undefined, false));
    expect(read.map((r) => [r.status, r.body.id])).toEqual(ids.map((id) => [200, id]));
    const list = await listed(month);
    expect(list.total).toBe(n);
    expect(list.ids.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  });

  it('keeps WordPress’s first free slug without contention, reusing a freed one', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await call('POST', '/events', { title: 'Quiet Evening', start_date: at('2032-02', 1, 18), end_date: at('2032-02', 1, 20) })).body.slug);
    expect(made).toEqual(['quiet-evening', 'quiet-evening-2', 'quiet-evening-3']);
    const second = (await call('GET', '/events/by-slug/quiet-evening-2')).body.id as number;
    expect((await call('DELETE', `/events/${second}`)).status).toBe(200);
    const again = await call('POST', '/events', { title: 'Quiet Evening', start_date: at('2032-02', 2, 18), end_date: at('2032-02', 2, 20) });
    expect(again.body.slug).toBe('quiet-evening-2');
  });

  it('looks past ten taken candidates for the first free one', async () => {
    const taken = ['crowded', ...Array.from({ length: 24 }, (_, i) => `crowded-${i + 2}`)].filter((s) => s !== 'crowded-17');
    await transact(taken.map((s, i) => put({ ...keys.slugGuard('event', 'en', s), id: 90_000 + i })));
    expect(await freeSlug('event', 'en', 'crowded')).toBe('crowded-17');
  });

  it('gives writers that lost a race distinct tickets (one atomic counter per wanted slug)', async () => {
    await transact([put({ ...keys.slugGuard('venue', 'en', 'ticketed'), id: 91_000 })]);
    const slugs = await storm(20, () => freeSlug('venue', 'en', 'ticketed', undefined, 2));
    expect(new Set(slugs).size).toBe(20);
    expect(new Set(slugs)).toEqual(new Set(Array.from({ length: 20 }, (_, i) => `ticketed-${i + 2}`)));
  });
});

/** Checks that an event's featured item, category links, term counts and list totals match its record. */
async function expectConsistent(id: number, month: string, categories: number[]): Promise<EventItem> {
  const record = (await storedItem<EventItem>(keys.post(id)))!;
  const featured = (await storedItem<LinkItem>(keys.featured(id)))!;
  expect(indexAttributes(featured)).toEqual(indexAttributes(record));
  expect(featured).toMatchObject(listKeys.event(record.lang, record.status, record.utcStart, id, `featured#${record.featured ? 1 : 0}`));
  for (const c of categories) {
    const link = await storedItem<LinkItem>(keys.link(keys.term(c).pk, id));
    const linked = record.categories.includes(c);
    expect(!!link).toBe(linked);
    if (link) expect(indexAttributes(link)).toEqual(indexAttributes(record));
    expect((await call('GET', `/categories/${c}`)).body.count).toBe(linked ? 1 : 0);
    expect((await listed(month, { categories: c })).total).toBe(linked ? 1 : 0);
  }
  expect((await listed(month)).ids).toEqual([id]);
  expect((await listed(month, { featured: 'true' })).total).toBe(record.featured ? 1 : 0);
  expect((await listed(month, { featured: 'false' })).total).toBe(record.featured ? 0 : 1);
  return record;
}

describe('PATCH storms on one event', () => {
  it('applies nearly every title change, each exactly once; the last writer wins', async () => {
    const month = '2032-03';
    const e = await call('POST', '/events', { title: 'Target', start_date: at(month, 5, 10), end_date: at(month, 5, 11) });
    const before = (await storedItem<EventItem>(keys.post(e.body.id)))!;
    const n = 30;
    const results = await storm(n, (i) => write('PATCH', `/events/${e.body.id}`, { title: `T-${i}` }));
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const won = results.flatMap((r, i) => (r.status === 200 ? [`T-${i}`] : []));
    expect(won.length).toBeGreaterThanOrEqual(0.9 * n);
    const after = await expectConsistent(e.body.id, month, []);
    expect(after.version - before.version).toBe(won.length);
    expect(won).toContain(after.title);
    expect((await call('GET', `/events/by-slug/${after.slug}`)).body.title).toBe(after.title);
  });

  it('keeps index items, links and counts consistent when the writers change what they derive from', async () => {
    const month = '2032-04';
    const catA = (await call('POST', '/categories', { name: 'Storm A' })).body.id as number;
    const catB = (await call('POST', '/categories', { name: 'Storm B' })).body.id as number;
    const e = await call('POST', '/events', { title: 'Busy', start_date: at(month, 5, 10), end_date: at(month, 5, 11), categories: [catA] });
    const before = (await storedItem<EventItem>(keys.post(e.body.id)))!;
    const writes = Array.from({ length: 16 }, (_, i) => {
      switch (i % 4) {
        case 0:
          return { field: 'featured', body: { featured: i % 8 === 0 } };
        case 1:
          return { field: 'start', body: { start_date: at(month, 1 + i, 9), end_date: at(month, 1 + i, 12) } };
        case 2:
          return { field: 'categories', body: { categories: [i % 8 === 2 ? catA : catB] } };
        default:
          return { field: 'title', body: { title: `B-${i}` } };
      }
    });
    const results = await storm(writes.length, (i) => write('PATCH', `/events/${e.body.id}`, writes[i]!.body));
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const won = writes.filter((_, i) => results[i]!.status === 200);
    expect(won.length).toBeGreaterThan(0);
    const after = await expectConsistent(e.body.id, month, [catA, catB]);
    // Every success applied once, every 409 nothing.
    expect(after.version - before.version).toBe(won.length);
    // Each field holds what one of its successful writers sent (or its first value).
    const values = (field: string, of: (b: any) => unknown, initial: unknown) => {
      const sent = won.filter((w) => w.field === field).map((w) => JSON.stringify(of(w.body)));
      return sent.length ? sent : [JSON.stringify(initial)];
    };
    expect(values('featured', (b) => b.featured, false)).toContain(JSON.stringify(after.featured));
    expect(values('start', (b) => b.start_date, before.start)).toContain(JSON.stringify(after.start));
    expect(values('categories', (b) => b.categories, [catA])).toContain(JSON.stringify(after.categories));
    expect(values('title', (b) => b.title, 'Busy')).toContain(JSON.stringify(after.title));
  });
});

describe('retry loops that run out of time', () => {
  it('stop retrying before the deadline: a record changed by others is the last lost race (409), contention is OutOfTime (503)', async () => {
    const losing = (err: () => Error) => {
      let attempts = 0;
      const run = withDeadline(ANSWER_MARGIN_MS + 300, () =>
        withRetry(async () => {
          attempts++;
          await new Promise((r) => setTimeout(r, 30));
          throw err();
        }),
      );
      return { run, attempts: () => attempts };
    };
    const changed = losing(() => new ConflictError('lost again'));
    await expect(changed.run).rejects.toBeInstanceOf(ConflictError);
    await expect(changed.run).rejects.not.toBeInstanceOf(OutOfTime);
    expect(changed.attempts()).toBeGreaterThan(1);
    expect(changed.attempts()).toBeLessThan(50);
    const met = losing(() => new Contention('met another writer'));
    await expect(met.run).rejects.toBeInstanceOf(OutOfTime);
    await expect(met.run).rejects.toBeInstanceOf(Busy);
    expect(met.attempts()).toBeGreaterThan(1);
  });

  it('answer the lost race when a later attempt is refused for time', async () => {
    const attempt = (n: number) => {
      if (n === 1) throw new ConflictError('lost');
      throw new OutOfTime('commit would not finish');
    };
    await expect(withDeadline(ANSWER_MARGIN_MS + 2_000, () => withRetry(async (n) => attempt(n)))).rejects.toBeInstanceOf(ConflictError);
    await expect(withDeadline(ANSWER_MARGIN_MS + 2_000, () => withRetry(async () => attempt(2)))).rejects.toBeInstanceOf(OutOfTime);
  });

  it('never send a transaction that could not finish before the deadline', async () => {
    const key = { pk: 'STORMS#late', sk: 'X' };
    await expect(withDeadline(ANSWER_MARGIN_MS + 10, () => transact([put({ ...key })]))).rejects.toBeInstanceOf(OutOfTime);
    expect(await storedItem(key)).toBeUndefined();
  });

  it('answer 409 rest_conflict, having written nothing, when every attempt loses its race', async () => {
    const month = '2032-05';
    const e = await call('POST', '/events', { title: 'Contested', start_date: at(month, 5, 10), end_date: at(month, 5, 11) });
    const id = e.body.id as number;
    const before = (await storedItem<EventItem>(keys.post(id)))!;
    let lost = 0;
    // Another writer changes the event's index state just before each of this request's commits.
    hook(async (command, input) => {
      if (command !== 'TransactWriteItemsCommand' || !input.TransactItems.some((t: Record<string, any>) => keyOfItem(t).pk === `POST#${id}`)) return;
      lost++;
      await db().send(
        new UpdateCommand({
          TableName: config().tableName,
          Key: keys.post(id),
          UpdateExpression: 'SET #iv = if_not_exists(#iv, #v) + :one',
          ExpressionAttributeNames: { '#iv': 'indexVersion', '#v': 'version' },
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
    });
    // The function's timeout leaves the request three seconds after the answer margin: room for a
    // first attempt even on a loaded machine (one that had no time to lose a race answers 503).
    const result = await write('PATCH', `/events/${id}`, { featured: true }, ANSWER_MARGIN_MS + 3_000);
    expect(result.status).toBe(409);
    expect(result.body).toMatchObject({ code: 'rest_conflict', data: { status: 409 } });
    expect(lost).toBeGreaterThan(0);
    hooks.length = 0;
    const after = (await storedItem<EventItem>(keys.post(id)))!;
    expect(after.featured).toBe(false);
    expect(after.version).toBe(before.version);
    expect((await storedItem<LinkItem>(keys.featured(id)))!.featured).toBe(false);
    expect((await listed(month, { featured: 'true' })).total).toBe(0);
  });

  it('fan-outs start no group they cannot finish, and say how many items they left', async () => {
    const done: number[] = [];
    const run = withDeadline(ANSWER_MARGIN_MS + 250, () =>
      fanOut(
        [1, 2, 3, 4, 5, 6, 7, 8],
        2,
        async (n) => {
          await new Promise((r) => setTimeout(r, 100));
          done.push(n);
        },
        'Slow items',
      ),
    );
    await expect(run).rejects.toThrow(/not started before the deadline/);
    expect(done.length).toBeGreaterThan(0);
    expect(done.length).toBeLessThan(8);
  });
});

describe('a transaction that meets another on a hot item', () => {
  it('is sent again, and lands once', async () => {
    const key = { pk: 'STORMS#hot', sk: 'X' };
    let refused = 0;
    // DynamoDB refuses a transaction while another one holds one of its items; DynamoDB Local
    // queues them instead, so the refusal is simulated for the first two sends.
    hook((command, input) => {
      if (command !== 'TransactWriteItemsCommand' || keyOfItem(input.TransactItems[0]).pk !== key.pk || refused >= 2) return;
      refused++;
      throw new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
        $metadata: {},
        CancellationReasons: [{ Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }],
      });
    });
    await transact([put({ ...key, n: 1 })]);
    expect(refused).toBe(2);
    expect(await storedItem(key)).toEqual({ ...key, n: 1 });
  });
});
