// What an error answer means when DynamoDB is slow at any stage of a write. A proxy in front of
// DynamoDB Local holds one chosen request of a create or an update past the function's timeout:
// either the request itself (it reaches DynamoDB late, after the client gave up on it) or its
// answer (it was carried out, and the client never hears so). After each, the table says what
// the answer meant: a success is stored once, an error other than 503 wrote nothing, and a 503
// `rest_outcome_unknown` left a consistent state that a retry settles (a create with the same
// Idempotency-Key answers with the one record, never a second).
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { roleToken } from '../support/tokens.js';
import { matchRoute, toApiGatewayEvent } from '#lib/local/event.js';
import { lambdaContext, loadHandler } from '#lib/local/gateway.js';
import { withLogWriter } from '#lib/observe/logger.js';
import { terminalLogWriter } from '#lib/local/terminal-log.js';
import { TRANSACT_TIMES_MAX_AGE_MS } from '#lib/store/transactions.js';
import { keys } from '#lib/store/keys.js';
import { indexAttributes } from '#lib/logic/event-writes.js';
import type { EventItem, LinkItem } from '#lib/store/items.js';
import { dynamoEndpoint, useFreshTable } from '../support/table.js';
import { storedItem } from '../support/stored.js';

useFreshTable('outcomes');

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** What the proxy does to one request: hold it before passing it on, or hold DynamoDB's answer. */
type Hold = 'request' | 'answer';
/**
 * The function's timeout in the forced runs, and how long a held request or answer waits at most
 * (longer). It waits less when the run it belongs to has answered and its function's timeout has
 * passed (until then a retry with the same key finds the first still running: 409): it then
 * lands late, as a held one does, without the test sleeping longer.
 */
const TIMEOUT_MS = 2_500;
const HOLD_MS = 3_000;
const LATE_AFTER_ANSWER_MS = 50;
/** The function's timeout when every transaction is held. */
const LATE_TIMEOUT_MS = 5_000;

/**
 * The proxy: every request's operation name in order, the one to hold (by its name and
 * occurrence), what it held, and when the held one may go on (once its run has answered).
 */
const proxy = {
  seen: [] as string[],
  hold: undefined as { when: (stage: string) => boolean; how: Hold; ms?: number } | undefined,
  late: [] as Promise<void>[],
  answered: undefined as Promise<unknown> | undefined, // settles, never rejects
};

/** Waits `ms`, or until the run that is holding answered and timed out, a little later. */
const held = (ms: number) => {
  const answered = proxy.answered;
  return Promise.race([sleep(ms), ...(answered ? [answered.then(() => sleep(LATE_AFTER_ANSWER_MS))] : [])]);
};

/** Runs `run` (with a timeout of `timeoutMs`) as the one the proxy's holds belong to, then waits for what it held to land. */
async function holding<T>(run: () => Promise<T>, timeoutMs = TIMEOUT_MS): Promise<T> {
  const timedOut = sleep(timeoutMs);
  const answer = run();
  proxy.answered = Promise.allSettled([answer, timedOut]);
  try {
    return await answer;
  } finally {
    proxy.hold = undefined;
    await Promise.all(proxy.late);
    proxy.answered = undefined;
  }
}
let server: Server;
let upstream: string;

/** `TransactWriteItems#1`: the operation and its occurrence since the proxy's log was cleared. */
const stageName = (seen: string[], target: string) => `${target}#${seen.filter((s) => s === target).length}`;

function startProxy(to: string): Promise<string> {
  const up = new URL(to);
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const target =
        String(req.headers['x-amz-target'] ?? '')
          .split('.')
          .pop() ?? '';
      proxy.seen.push(target);
      const how = proxy.hold?.when(stageName(proxy.seen, target)) ? proxy.hold.how : undefined;
      const wait = how ? held(proxy.hold?.ms ?? HOLD_MS) : undefined;
      res.on('error', () => undefined);
      const pass = new Promise<void>((done) => {
        const forward = () => {
          const out = request({ host: up.hostname, port: up.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
            const parts: Buffer[] = [];
            answer.on('data', (c: Buffer) => parts.push(c));
            answer.on('end', async () => {
              if (how === 'answer') await wait;
              if (!res.destroyed) res.writeHead(answer.statusCode ?? 500, answer.headers).end(Buffer.concat(parts));
              done();
            });
          });
          out.on('error', () => done());
          out.end(body);
        };
        // A held request is passed on even though its client gave up on it: it lands late.
        if (how === 'request') void wait!.then(forward);
        else forward();
      });
      if (how) proxy.late.push(pass);
    });
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

let token: string;
let saved: string | undefined;
beforeAll(async () => {
  upstream = await dynamoEndpoint();
  saved = process.env.DYNAMODB_ENDPOINT;
  process.env.DYNAMODB_ENDPOINT = await startProxy(upstream);
  token = await roleToken('editor', 'outcomes-editor');
});
afterAll(async () => {
  if (saved === undefined) delete process.env.DYNAMODB_ENDPOINT;
  else process.env.DYNAMODB_ENDPOINT = saved;
  await new Promise((ok) => server?.close(ok));
});

interface Answer {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

/** A request through its handler module, as Lambda runs it with a timeout of `timeoutMs`. */
async function send(method: string, path: string, body: unknown, headers: Record<string, string> = {}, timeoutMs = 30_000): Promise<Answer> {
  const url = `/en/${config().namespace}/events/v1${path}`;
  const match = matchRoute(method, url);
  const all = { host: '127.0.0.1:3000', 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers };
  const event = toApiGatewayEvent({ method, url, headers: all, body: Buffer.from(JSON.stringify(body)) }, match);
  const handler = await loadHandler(match.handler);
  // Request lines are left out, errors are not (they are expected here: timeouts).
  const quiet = terminalLogWriter({ format: 'json', quiet: true });
  const result = (await withLogWriter(quiet, () => handler(event, lambdaContext(match.op!.id, undefined, timeoutMs)))) as APIGatewayProxyStructuredResultV2;
  return { status: result.statusCode ?? 200, body: JSON.parse(String(result.body)), headers: (result.headers ?? {}) as Record<string, unknown> };
}

/** The stages of a request: each DynamoDB request it makes, named by operation and occurrence. */
async function stagesOf(run: () => Promise<Answer>): Promise<string[]> {
  proxy.seen = [];
  const answer = await run();
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return proxy.seen.map((target, i) => stageName(proxy.seen.slice(0, i + 1), target));
}

/** Runs `run` with `stage` held, and waits until whatever was held has landed or been answered. */
async function forced(stage: string, how: Hold, run: () => Promise<Answer>): Promise<Answer> {
  proxy.seen = [];
  proxy.late = [];
  proxy.hold = { when: (s) => s === stage, how };
  return holding(run);
}

/** Every item of the table, by key. */
async function tableItems(): Promise<Map<string, Record<string, unknown>>> {
  const items = new Map<string, Record<string, unknown>>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new ScanCommand({ TableName: config().tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of page.Items ?? []) items.set(`${item.pk}|${item.sk}`, item);
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * The items a request changed, less the bookkeeping a request may leave whatever it answers (id
 * sequences, slug tickets, the Idempotency-Key's records, and a search's note to read an event's
 * record as it is, which an edit of searched fields puts before its update: lib/store/recent-writes.ts):
 * what remains is what it wrote.
 */
function changed(before: Map<string, Record<string, unknown>>, after: Map<string, Record<string, unknown>>): string[] {
  const bookkeeping = /^(COUNTER#|SLUGSEQ#|IDEMPOTENCY\||RECENT#)/;
  const keysOf = new Set([...before.keys(), ...after.keys()]);
  return [...keysOf].filter((k) => !bookkeeping.test(k) && JSON.stringify(before.get(k)) !== JSON.stringify(after.get(k)));
}

const expectUnknown = (a: Answer) => {
  expect(a.body).toMatchObject({ code: 'rest_outcome_unknown', data: { status: 503 } });
  expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
};

/** The stored events of a title. */
const eventsTitled = async (title: string) => [...(await tableItems()).values()].filter((i) => i.kind === 'event' && i.title === title);

/** Checks that an event's derived items agree with its record. */
async function expectConsistent(id: number): Promise<EventItem> {
  const record = (await storedItem<EventItem>(keys.post(id)))!;
  expect(indexAttributes((await storedItem<LinkItem>(keys.featured(id)))!)).toEqual(indexAttributes(record));
  for (const c of record.tags) expect(indexAttributes((await storedItem<LinkItem>(keys.link(keys.term(c).pk, id)))!)).toEqual(indexAttributes(record));
  return record;
}

const at = (day: number, hour: number) => `2033-03-${String(day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:00:00`;

describe('a create held at each of its stages', () => {
  it('answers 201 stored once, an error that wrote nothing, or 503 that a retry with its key settles without a duplicate', async () => {
    const body = (title: string) => ({ title, start_date: at(3, 18), end_date: at(3, 20), tags: [`tag ${title}`], venue: { venue: `Hall ${title}` } });
    const create = (title: string, key: string, timeoutMs?: number) => () => send('POST', '/events', body(title), { 'idempotency-key': key }, timeoutMs);
    // Warm: the user registered, the handlers loaded; then the stages of a warm create.
    expect((await create('warm', 'warm')()).status).toBe(201);
    const stages = await stagesOf(create('stages', 'stages'));
    expect(stages).toContain('TransactWriteItems#1');
    const seen: Record<string, number[]> = {};
    let n = 0;
    for (const stage of stages)
      for (const how of stage.startsWith('TransactWriteItems') || stage.startsWith('UpdateItem') || stage.startsWith('PutItem')
        ? (['request', 'answer'] as const)
        : (['answer'] as const)) {
        const title = `held ${++n}`;
        const key = `held-${n}`;
        const before = await tableItems();
        const answer = await forced(stage, how, create(title, key, TIMEOUT_MS));
        (seen[answer.status] ??= []).push(n);
        const what = `${stage} (${how}): ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
        if (answer.status === 201) {
          expect(
            (await eventsTitled(title)).map((e) => e.id),
            what,
          ).toEqual([answer.body.id]);
          continue;
        }
        if (answer.status === 503 && answer.body.code !== 'rest_busy') {
          expectUnknown(answer);
          // The retry with the same key answers with the one record, stored or created now.
          const retry = await create(title, key)();
          expect(retry.status, what).toBe(201);
          expect(
            (await eventsTitled(title)).map((e) => e.id),
            what,
          ).toEqual([retry.body.id]);
          await expectConsistent(retry.body.id);
          const again = await create(title, key)();
          expect(again.body.id).toBe(retry.body.id);
          continue;
        }
        // Any other error (`rest_busy` included): nothing was written.
        expect(answer.status, what).toBeGreaterThanOrEqual(400);
        expect(changed(before, await tableItems()), what).toEqual([]);
      }
    // The transaction's own answer held: the same transaction sent again with its token says it landed.
    expect(seen[201]?.length).toBeGreaterThan(0);
  }, 240_000);
});

describe('an update held at each of its stages', () => {
  it('answers 200 with the change stored, an error that changed nothing, or 503 with a consistent record', async () => {
    const made = await send('POST', '/events', { title: 'Patched', start_date: at(5, 10), end_date: at(5, 11), tags: ['patched'] });
    expect(made.status).toBe(201);
    const id = made.body.id as number;
    // A change of an indexed field (a transaction) and one of the record alone (an UpdateItem).
    const bodies = [(n: number) => ({ featured: n % 2 === 1, start_date: at(6 + (n % 20), 10), end_date: at(6 + (n % 20), 12) }), (n: number) => ({ title: `Patched ${n}` })];
    let n = 0;
    for (const body of bodies) {
      const patch = (m: number, timeoutMs?: number) => () => send('PATCH', `/events/${id}`, body(m), {}, timeoutMs);
      const stages = await stagesOf(patch(++n));
      for (const stage of stages)
        for (const how of ['request', 'answer'] as const) {
          const m = ++n;
          const before = await tableItems();
          const old = (await storedItem<EventItem>(keys.post(id)))!;
          const answer = await forced(stage, how, patch(m, TIMEOUT_MS));
          const what = `${stage} (${how}): ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
          const now = await expectConsistent(id);
          const sent = body(m) as Record<string, unknown>;
          const applied = 'title' in sent ? now.title === sent.title : now.featured === sent.featured && now.start === sent.start_date;
          if (answer.status === 200) {
            expect(applied, what).toBe(true);
            expect(now.version, what).toBe(old.version + 1);
          } else if (answer.status === 503 && answer.body.code !== 'rest_busy') {
            expectUnknown(answer);
            // Stored or not, once: the version moved by one exactly when the change is there.
            expect(now.version - old.version, what).toBe(applied ? 1 : 0);
          } else {
            // Any other error (`rest_busy` included): nothing changed.
            expect(answer.status, what).toBeGreaterThanOrEqual(400);
            expect(changed(before, await tableItems()), what).toEqual([]);
          }
        }
    }
  }, 240_000);

  it('leaves the record with the fields of a request answered 200 after concurrent PATCHes, some held', async () => {
    const made = await send('POST', '/events', { title: 'Crowded', start_date: at(7, 10), end_date: at(7, 11) });
    const id = made.body.id as number;
    const n = 20;
    proxy.seen = [];
    proxy.late = [];
    // Every third transaction's answer comes after the deadline.
    proxy.hold = { when: (stage) => stage.startsWith('TransactWriteItems#') && Number(stage.split('#')[1]) % 3 === 0, how: 'answer' };
    const answers = await holding(() =>
      Promise.all(Array.from({ length: n }, (_, i) => send('PATCH', `/events/${id}`, { title: `C-${i}`, featured: i % 2 === 0 }, {}, TIMEOUT_MS))),
    );
    const record = await expectConsistent(id);
    const ok = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
    const unknown = answers.flatMap((a, i) => (a.status === 503 ? [i] : []));
    for (const a of answers) expect([200, 409, 503], JSON.stringify(a.body)).toContain(a.status);
    // The record holds the title and the featured flag of one request, answered 200 or 503 (unknown).
    const winner = [...ok, ...unknown].find((i) => record.title === `C-${i}`);
    expect(winner, `${record.title}: 200 ${ok} 503 ${unknown}`).toBeDefined();
    expect(record.featured).toBe(winner! % 2 === 0);
  }, 120_000);
});

describe('a create whose every send of its transaction lands late', () => {
  it('answers 503, and its retry with the same key answers with the one record, for every kind', async () => {
    for (const [path, body] of [
      ['/events', { title: 'Late event', start_date: at(9, 10), end_date: at(9, 11) }],
      ['/venues', { venue: 'Late hall' }],
      ['/organizers', { organizer: 'Late organizer' }],
      ['/tags', { name: 'late tag' }],
      ['/categories', { name: 'Late category' }],
    ] as const) {
      const headers = { 'idempotency-key': `late-${path}` };
      // The slow transaction before is forgotten first: else the next one is not even sent (409).
      await sleep(TRANSACT_TIMES_MAX_AGE_MS);
      proxy.seen = [];
      proxy.late = [];
      // A longer timeout than the forced runs': the create's reads before its transaction must
      // fit on a loaded machine, or it answers rest_busy having sent nothing.
      proxy.hold = { when: (stage) => stage.startsWith('TransactWriteItems#'), how: 'request', ms: LATE_TIMEOUT_MS + 1_000 };
      const first = await holding(() => send('POST', path, body, headers, LATE_TIMEOUT_MS), LATE_TIMEOUT_MS);
      expect(first.status, `${path}: ${JSON.stringify(first.body)}`).toBe(503);
      expectUnknown(first);
      const retry = await send('POST', path, body, headers);
      expect(retry.status, `${path}: ${JSON.stringify(retry.body)}`).toBe(201);
      const again = await send('POST', path, body, headers);
      expect(again.body.id).toBe(retry.body.id);
      const name = Object.values(body)[0];
      const record = path === '/tags' || path === '/categories' ? keys.term(retry.body.id) : keys.post(retry.body.id);
      expect((await storedItem<Record<string, unknown>>(record))?.[record.sk === 'TERM' ? 'name' : 'title']).toBe(name);
      const same = [...(await tableItems()).values()].filter((i) => (i.sk === 'POST' || i.sk === 'TERM') && (i.title ?? i.name) === name);
      expect(same.length, path).toBe(1);
    }
  }, 120_000);
});
