// Requests in a process that Lambda hands one invocation at a time (AWS_LAMBDA_RUNTIME_API set):
// their scope is a plain variable (lib/runtime/scope.ts), and work a request leaves running (an operation
// given up at its early timeout, a DynamoDB request abandoned when a sibling failed first) still
// reads its own deadline and counts its own DynamoDB requests when the next invocation comes.
import { GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { apiEvent, captureOutput, fakeContext } from '../support/lambda.js';
import { useFreshTable } from '../support/table.js';

const saved = vi.hoisted(() => {
  // Read when lib/runtime/scope.ts is first imported: this file's modules see a standard Lambda process.
  const before = { api: process.env.AWS_LAMBDA_RUNTIME_API, max: process.env.AWS_LAMBDA_MAX_CONCURRENCY };
  process.env.AWS_LAMBDA_RUNTIME_API = '127.0.0.1:9001';
  delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
  return before;
});
import { db } from '#lib/store/db.js';
import { roleToken } from '../support/tokens.js';
import { remainingMs } from '#lib/runtime/deadline.js';
import { handle } from '#lib/http/pipeline.js';
import { json } from '#lib/contract/reply.js';
import { requestsIsolated } from '#lib/runtime/scope.js';

afterAll(() => {
  if (saved.api === undefined) delete process.env.AWS_LAMBDA_RUNTIME_API;
  else process.env.AWS_LAMBDA_RUNTIME_API = saved.api;
  if (saved.max !== undefined) process.env.AWS_LAMBDA_MAX_CONCURRENCY = saved.max;
});

const table = useFreshTable('one-at-a-time');
const ROOT = '/en/tribe/events/v1';

const getOne = () => db().send(new GetCommand({ TableName: table, Key: { pk: 'NONE', sk: 'NONE' } }));

function requestLine(printed: Record<string, any>[], correlation: string) {
  const lines = printed.filter((l) => l.message === 'request' && l.correlation_id === correlation);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe('a process handed one request at a time', () => {
  it('runs requests one after another with their own deadlines and tallies, and no AsyncLocalStorage', async () => {
    const op = handle('root.index', async () => {
      await getOne();
      return json(200, { left: remainingMs() });
    });
    for (const [name, ms] of [
      ['first', 10_000],
      ['second', 4_000],
    ] as const) {
      const deadline = Date.now() + ms;
      const context = { ...fakeContext(), getRemainingTimeInMillis: () => deadline - Date.now() };
      const out = await captureOutput(() => op(apiEvent('GET', ROOT, { 'x-request-id': name }), context));
      const left = JSON.parse(out.result.body!).left as number;
      expect(left).toBeLessThanOrEqual(ms - 1_500);
      expect(left).toBeGreaterThan(ms - 3_000);
      expect(requestLine(out.json, name).dynamodb.requests).toBe(1);
    }
    expect(requestsIsolated()).toBe(false);
  });

  it('keeps an operation left running after its timeout answer on its own values when the next request comes', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let seen!: Promise<number>;
    const slow = handle('root.index', async () => {
      seen = (async () => {
        await gate;
        await getOne();
        return remainingMs();
      })();
      await seen;
      return json(200, { late: true });
    });
    const deadline = Date.now() + 300;
    const first = await captureOutput(() => slow(apiEvent('GET', ROOT, { 'x-request-id': 'slow' }), { ...fakeContext(), getRemainingTimeInMillis: () => deadline - Date.now() }));
    expect(first.result.statusCode).toBe(503);
    expect(requestLine(first.json, 'slow').status).toBe(503);

    // The next invocation arrives while the first operation still runs, and lets it go on.
    const next = handle('root.index', async () => {
      release();
      const leftover = await seen;
      await getOne();
      return json(200, { leftover, left: remainingMs() });
    });
    const second = await captureOutput(() => next(apiEvent('GET', ROOT, { 'x-request-id': 'next' }), fakeContext()));
    const body = JSON.parse(second.result.body!) as { leftover: number; left: number };
    // The leftover read its own, long past, deadline; the next request its own 10 s one.
    expect(body.leftover).toBeLessThan(0);
    expect(body.left).toBeGreaterThan(5_000);
    // Only the next request's own DynamoDB request is in its tally.
    expect(requestLine(second.json, 'next').dynamodb.requests).toBe(1);
    // From then on, requests are kept apart by an AsyncLocalStorage.
    expect(requestsIsolated()).toBe(true);
  });

  it('keeps a DynamoDB request abandoned by a failed sibling on its own values when the next request comes', async () => {
    // A runs in a process of its own: the previous test left this one isolated.
    const { handle: freshHandle } = await freshPipeline();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let leftover!: Promise<number>;
    const failing = freshHandle.handle('root.index', async () => {
      leftover = (async () => {
        // Still out when the sibling's failure answers 400; then it goes on to a second request.
        await freshHandle.getOne();
        await gate;
        await freshHandle.getOne();
        return freshHandle.remainingMs();
      })();
      await Promise.all([leftover, Promise.reject(freshHandle.invalidParam('per_page', 'is not valid'))]);
      return json(200, {});
    });
    const first = await captureOutput(() => failing(apiEvent('GET', ROOT, { 'x-request-id': 'failed' }), { ...fakeContext(), getRemainingTimeInMillis: () => 3_000 }));
    expect(first.result.statusCode).toBe(400);
    expect(freshHandle.requestsIsolated()).toBe(false);

    const next = freshHandle.handle('root.index', async () => {
      release();
      const mine = await leftover;
      await freshHandle.getOne();
      return json(200, { leftover: mine, left: freshHandle.remainingMs() });
    });
    const second = await captureOutput(() => next(apiEvent('GET', ROOT, { 'x-request-id': 'after' }), { ...fakeContext(), getRemainingTimeInMillis: () => 60_000 }));
    const body = JSON.parse(second.result.body!) as { leftover: number; left: number };
    expect(body.leftover).toBeLessThan(1_500);
    expect(body.left).toBeGreaterThan(50_000);
    expect(requestLine(second.json, 'after').dynamodb.requests).toBe(1);
    expect(freshHandle.requestsIsolated()).toBe(true);
  });
});

describe('a request that fails', () => {
  it('answers only once the reads it started beside are done, and leaves nothing running', async () => {
    vi.resetModules();
    const [{ handler }, scope] = await Promise.all([import('../../functions/events/list.js'), import('#lib/runtime/scope.js')]);
    // The unknown category fails the filter check while the places near the point are still read.
    for (let i = 0; i < 3; i++) {
      const event = { ...apiEvent('GET', `${ROOT}/events`), rawQueryString: 'geoloc=true&categories=99999' };
      const out = await captureOutput(() => handler(event, fakeContext()));
      expect(JSON.parse(out.result.body!)).toMatchObject({ code: 'rest_invalid_param', data: { params: { categories: expect.any(String) } } });
    }
    const out = await captureOutput(() => handler(apiEvent('GET', `${ROOT}/events`), fakeContext()));
    expect(out.result.statusCode).toBe(200);
    expect(scope.requestsIsolated()).toBe(false);
  });
});

describe('a request that succeeds', () => {
  it('reads the longest event duration only when an end bound needs it, and leaves nothing running', async () => {
    const token = await roleToken('editor', 'one-at-a-time-editor');
    const { handler: create } = await import('../../functions/events/create.js');
    const start = new Date(Date.now() + 40 * 86_400_000);
    const day = (n: number) => new Date(start.getTime() + n * 86_400_000).toISOString().slice(0, 10);
    for (let i = 0; i < 3; i++) {
      const event = {
        ...apiEvent('POST', `${ROOT}/events`, { authorization: `Bearer ${token}`, 'content-type': 'application/json' }),
        body: JSON.stringify({ title: `Span ${i}`, start_date: `${day(i)} 10:00:00`, end_date: `${day(i)} 11:00:00`, status: 'publish' }),
      };
      expect((await captureOutput(() => create(event, fakeContext()))).result.statusCode).toBe(201);
    }
    // Day buckets written before they carried durations: a total over them needs the longest one.
    const { Items = [] } = await db().send(new ScanCommand({ TableName: table, FilterExpression: 'begins_with(pk, :c)', ExpressionAttributeValues: { ':c': 'COUNT#' } }));
    expect(Items.length).toBeGreaterThan(0);
    for (const b of Items) await db().send(new UpdateCommand({ TableName: table, Key: { pk: b.pk, sk: b.sk }, UpdateExpression: 'REMOVE ds' }));
    for (let i = 0; i < 4; i++) {
      vi.resetModules();
      const [{ handler }, scope, { capacity }] = await Promise.all([import('../../functions/events/list.js'), import('#lib/runtime/scope.js'), import('#lib/observe/capacity.js')]);
      const event = { ...apiEvent('GET', `${ROOT}/events`), rawQueryString: `starts_after=${day(-1)}` };
      const out = await captureOutput(() => handler(event, fakeContext()));
      expect(JSON.parse(out.result.body!).total).toBe(3);
      // No end bound: the STATS item (a GetItem) is not read.
      expect(capacity.snapshot().commands).not.toHaveProperty('GetItemCommand');
      expect(capacity.snapshot().commands).toHaveProperty('QueryCommand');
      await scope.inRequestScope(async () => undefined);
      expect(scope.requestsIsolated()).toBe(false);
    }
  });
});

/** The pipeline and its modules loaded again: a process whose requests have not been isolated yet. */
async function freshPipeline() {
  vi.resetModules();
  const [pipeline, deadline, scope, dbModule, errors] = await Promise.all([
    import('#lib/http/pipeline.js'),
    import('#lib/runtime/deadline.js'),
    import('#lib/runtime/scope.js'),
    import('#lib/store/db.js'),
    import('#lib/contract/errors.js'),
  ]);
  return {
    handle: {
      handle: pipeline.handle,
      remainingMs: deadline.remainingMs,
      requestsIsolated: scope.requestsIsolated,
      invalidParam: errors.invalidParam,
      getOne: () => dbModule.db().send(new GetCommand({ TableName: table, Key: { pk: 'NONE', sk: 'NONE' } })),
    },
  };
}
