// Store primitives over the shared client: reads, batched reads, transactions, id sequences,
// slug allocation and users. No Scan anywhere.
import {
  BatchGetCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandInput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { config, type Lang } from '#lib/runtime/config.js';
import { db } from './db.js';
import { remainingMs } from '#lib/runtime/deadline.js';
import { requestWork } from '#lib/runtime/scope.js';
import { ConflictError } from '#lib/contract/errors.js';
import { slugCandidates } from '#lib/domain/slug.js';
import { INDEXES } from './table.js';
import { keys, type PostKind, type Sequence, type Taxonomy } from './keys.js';
import { waitAll } from '#lib/runtime/settle.js';

export type Key = { pk: string; sk: string };
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const table = () => config().tableName;

export async function getItem<T>(key: Key, consistent = true): Promise<T | undefined> {
  const out = await db().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: consistent }));
  return out.Item as T | undefined;
}

/** Reads many items in as few BatchGet requests as DynamoDB allows (100 keys each). */
export async function batchGet<T>(list: Key[], consistent = false): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  const unique = [...new Map(list.map((k) => [`${k.pk}|${k.sk}`, { pk: k.pk, sk: k.sk }])).values()];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Key[] = unique.slice(i, i + 100);
    for (let attempt = 0; pending.length && attempt < 8; attempt++) {
      if (attempt) await sleep(20 * 2 ** attempt);
      const out = await db().send(new BatchGetCommand({ RequestItems: { [table()]: { Keys: pending, ...(consistent ? { ConsistentRead: true } : {}) } } }));
      for (const item of out.Responses?.[table()] ?? []) found.set(`${item.pk}|${item.sk}`, item as T);
      pending = (out.UnprocessedKeys?.[table()]?.Keys as Key[] | undefined) ?? [];
    }
    if (pending.length) throw new Error('BatchGet left keys unprocessed');
  }
  return found;
}

export const keyOf = (k: Key) => `${k.pk}|${k.sk}`;

export async function query<T>(input: Omit<QueryCommandInput, 'TableName'>): Promise<{ items: T[]; last?: Record<string, unknown> }> {
  const out = await db().send(new QueryCommand({ TableName: table(), ...input }));
  return { items: (out.Items ?? []) as T[], last: out.LastEvaluatedKey };
}

/** Every item of a query, following pages. For bounded partitions (a record's link items). */
export async function queryAll<T>(input: Omit<QueryCommandInput, 'TableName'>): Promise<T[]> {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new QueryCommand({ TableName: table(), ...input, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as T[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Counts the matches of a query without returning them (Select COUNT), following pages. */
export async function count(input: Omit<QueryCommandInput, 'TableName' | 'Select'>): Promise<number> {
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new QueryCommand({ TableName: table(), ...input, Select: 'COUNT', ExclusiveStartKey: start }));
    total += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return total;
}

export async function bySlug<T>(indexKey: string): Promise<T | undefined> {
  const out = await query<T>({
    IndexName: INDEXES.bySlug.indexName,
    KeyConditionExpression: '#k = :k',
    ExpressionAttributeNames: { '#k': INDEXES.bySlug.partitionKey },
    ExpressionAttributeValues: { ':k': indexKey },
    Limit: 1,
  });
  return out.items[0];
}

/** A write refused because the request would run out of time first; nothing was written. */
export class OutOfTime extends ConflictError {}

/** A slug guard of the transaction was taken by another writer in the meantime. */
export class SlugTaken extends ConflictError {}

/**
 * An item of the transaction was changed by another writer since it was read. `current` is the
 * item as the failed condition found it, when the item asked for it
 * (`ReturnValuesOnConditionCheckFailure`): a retry can start from it without reading it again.
 */
export class StaleItem extends ConflictError {
  constructor(
    message: string,
    readonly current?: Record<string, unknown>,
  ) {
    super(message);
  }
}

type AttributeValue = { S?: string; N?: string; BOOL?: boolean; NULL?: boolean; L?: AttributeValue[]; M?: Record<string, AttributeValue>; SS?: string[]; NS?: string[] };

/** A stored item in DynamoDB's wire format (as cancellation reasons carry it) as the document client reads it. */
export function fromAttributeValues(item: Record<string, AttributeValue>): Record<string, unknown> {
  const value = (v: AttributeValue): unknown => {
    if (v.S !== undefined) return v.S;
    if (v.N !== undefined) return Number(v.N);
    if (v.BOOL !== undefined) return v.BOOL;
    if (v.NULL) return null;
    if (v.L) return v.L.map(value);
    if (v.M) return fromAttributeValues(v.M);
    if (v.SS) return new Set(v.SS);
    if (v.NS) return new Set(v.NS.map(Number));
    return undefined;
  };
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, value(v)]));
}

/** A retry's wait, as work of the request (lib/runtime/scope.ts). */
export const sleep = (ms: number) => requestWork(new Promise<void>((ok) => setTimeout(ok, ms)));

/**
 * How long a kind of step took lately (the last `keep`), for guessing whether the next one still
 * fits in the request's time: the longest of them, and never less than a floor.
 */
export class Durations {
  private readonly recent: number[] = [];
  constructor(
    private readonly floorMs: number,
    private readonly keep = 20,
  ) {}
  add(ms: number): void {
    this.recent.push(ms);
    if (this.recent.length > this.keep) this.recent.shift();
  }
  estimate(): number {
    return Math.max(this.floorMs, ...this.recent);
  }
  /** Throws OutOfTime unless a step (plus `waitMs` before it) can still finish before the deadline. */
  ensure(what: string, waitMs = 0): void {
    if (remainingMs() < waitMs + this.estimate()) throw new OutOfTime(`Not enough time left to ${what}`);
  }
  /** Runs `fn` if it can still finish in time, and records how long it took. */
  async time<T>(what: string, fn: () => Promise<T>): Promise<T> {
    this.ensure(what);
    const started = Date.now();
    try {
      return await fn();
    } finally {
      this.add(Date.now() - started);
    }
  }
}

/** TransactWriteItems round trips of this process (the last ten: a slow spike is soon forgotten). */
const transactTimes = new Durations(50, 10);
/** Resends of a transaction that only met another transaction on one of its items. */
const CONFLICT_RESENDS = 4;

/** A random wait below `min(capMs, baseMs * 2^(n-1))` ("full jitter" exponential backoff). */
export const backoff = (n: number, baseMs: number, capMs: number) => Math.random() * Math.min(capMs, baseMs * 2 ** Math.max(0, n - 1));

const isSlugGuard = (item: TransactItem | undefined) => String((item?.Put?.Item as { pk?: unknown } | undefined)?.pk ?? '').startsWith('SLUG#');

/**
 * Runs one all-or-nothing transaction. A failed condition on an item is reported through
 * `onFailed` with the index of the item; unmapped, a slug guard's is a SlugTaken and any other a
 * ConflictError, which callers retry. A transaction that only met another one on an item (a
 * `TransactionConflict`: DynamoDB refuses concurrent transactions on one item rather than
 * queueing them) wrote nothing, and its items are still right (their conditions are checked
 * again), so it is sent again a few times after short jittered waits. It is never sent when the
 * request's deadline would pass before it can answer: a write that the client is told failed must
 * not land afterwards.
 */
export async function transact(items: TransactItem[], onFailed?: (index: number, current?: Record<string, unknown>) => Error | undefined): Promise<void> {
  if (items.length === 0) return;
  if (items.length > 100) throw new Error(`A transaction holds at most 100 items, got ${items.length}`);
  for (let resend = 0; ; resend++) {
    try {
      await transactTimes.time('commit the write', () => db().send(new TransactWriteCommand({ TransactItems: items })));
      return;
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) {
        const stored = reasons[failed]!.Item as Record<string, AttributeValue> | undefined;
        const current = stored ? fromAttributeValues(stored) : undefined;
        const mapped = onFailed?.(failed, current);
        if (mapped) throw mapped;
        if (isSlugGuard(items[failed])) throw new SlugTaken(`Slug guard ${String((items[failed]!.Put!.Item as Key).pk)} was taken`);
        throw new StaleItem(`Condition failed on transaction item ${failed}`, current);
      }
      if (!reasons.some((r) => r.Code === 'TransactionConflict')) throw err;
      if (resend >= CONFLICT_RESENDS) throw new ConflictError('Transaction conflict');
      const wait = backoff(resend + 1, 10, 100);
      transactTimes.ensure('commit the write', wait);
      await sleep(wait);
    }
  }
}

export interface RetryOptions {
  /** Most attempts (default 50); the deadline usually ends the loop first. */
  attempts?: number;
  /** The first wait's ceiling and the largest ceiling, in ms (full jitter below it). */
  baseMs?: number;
  capMs?: number;
  /** The least time an attempt is expected to take, whatever the attempts so far took. */
  floorMs?: number;
}

/**
 * Retries `fn` while it loses races (ConflictError), with jittered exponential backoff, as long
 * as the request has time for another attempt: an attempt is expected to take as long as the
 * longest one so far (at least `floorMs`), and none is started, nor waited for, that could not
 * finish before the deadline (lib/runtime/deadline.ts). Out of time, it throws OutOfTime, a
 * ConflictError (409 `rest_conflict`): every attempt wrote all or nothing, so nothing was
 * written. `fn` gets the attempt number and the error that ended the previous attempt.
 */
export async function withRetry<T>(fn: (attempt: number, previous?: ConflictError) => Promise<T>, options: RetryOptions | number = {}): Promise<T> {
  const { attempts = 50, baseMs = 10, capMs = 400, floorMs = 100 } = typeof options === 'number' ? { attempts: options } : options;
  let longest = 0;
  let previous: ConflictError | undefined;
  for (let i = 1; ; i++) {
    const estimate = Math.max(floorMs, longest);
    if (remainingMs() < estimate) throw new OutOfTime(`Not enough time left for attempt ${i}`, { cause: previous });
    const started = Date.now();
    try {
      return await fn(i, previous);
    } catch (err) {
      longest = Math.max(longest, Date.now() - started);
      if (!(err instanceof ConflictError) || err instanceof OutOfTime || i >= attempts) throw err;
      previous = err;
      const wait = backoff(i, baseMs, capMs);
      if (remainingMs() < wait + Math.max(floorMs, longest)) throw new OutOfTime(`Not enough time left after attempt ${i}`, { cause: err });
      await sleep(wait);
    }
  }
}

/**
 * Runs `fn` on every item, `width` at a time (a fan-out: the events of a venue, say), starting a
 * group only while the request still has time to finish it, as long as the longest group so far
 * took (at least `floorMs`). A started item always runs to its end; the others are tried even if
 * some fail. Throws at the end when any failed or was not started, naming how many: the caller
 * answers with an error, and repeating the request completes the work.
 */
export async function fanOut<T, R>(list: readonly T[], width: number, fn: (item: T) => Promise<R>, what: string, floorMs = 100): Promise<R[]> {
  const times = new Durations(floorMs);
  const results: R[] = [];
  const failures: unknown[] = [];
  let skipped = 0;
  for (let i = 0; i < list.length; i += width) {
    if (remainingMs() < times.estimate()) {
      skipped = list.length - i;
      break;
    }
    const started = Date.now();
    const done = await Promise.allSettled(list.slice(i, i + width).map(fn));
    times.add(Date.now() - started);
    for (const d of done) {
      if (d.status === 'fulfilled') results.push(d.value);
      else failures.push(d.reason);
    }
  }
  if (failures.length || skipped) {
    const parts = [failures.length ? `${failures.length} failed` : '', skipped ? `${skipped} not started before the deadline` : ''].filter(Boolean);
    throw new Error(`${what}: of ${list.length}, ${parts.join(' and ')}`, { cause: failures[0] });
  }
  return results;
}

/** The next integer of a sequence (atomic counter; gaps are possible, as in WordPress). */
export async function nextId(sequence: Sequence, n = 1): Promise<number> {
  const out = await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: keys.counter(sequence),
      UpdateExpression: 'ADD #v :n',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':n': n },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes!.value) - n + 1;
}

export const put = (
  item: object,
  condition: string | null = 'attribute_not_exists(pk)',
  values?: Record<string, unknown>,
): TransactItem => ({
  Put: {
    TableName: table(),
    Item: item as Record<string, unknown>,
    ...(condition ? { ConditionExpression: condition } : {}),
    ...(values ? { ExpressionAttributeValues: values } : {}),
  },
});

/**
 * Replaces a record only if nobody wrote it since it was read (optimistic locking). When someone
 * did, the transaction's StaleItem carries the record as it is now, for the retry.
 */
export const putIfVersion = (item: { version: number }, readVersion: number): TransactItem => ({
  Put: {
    TableName: table(),
    Item: item as unknown as Record<string, unknown>,
    ConditionExpression: '#v = :v',
    ExpressionAttributeNames: { '#v': 'version' },
    ExpressionAttributeValues: { ':v': readVersion },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});

/** The record a lost race found, if `previous` says (see StaleItem), when it is the one at `key`. */
export function foundInRace<T>(previous: unknown, key: Key): T | undefined {
  const current = previous instanceof StaleItem ? previous.current : undefined;
  return current && current.pk === key.pk && current.sk === key.sk ? (current as T) : undefined;
}

export const del = (key: Key): TransactItem => ({ Delete: { TableName: table(), Key: key } });

export const checkExists = (key: Key): TransactItem => ({
  ConditionCheck: { TableName: table(), Key: key, ConditionExpression: 'attribute_exists(pk)' },
});

export const update = (
  key: Key,
  expression: string,
  values: Record<string, unknown>,
  names?: Record<string, string>,
  condition?: string,
): TransactItem => ({
  Update: {
    TableName: table(),
    Key: key,
    UpdateExpression: expression,
    ExpressionAttributeValues: values,
    ...(names ? { ExpressionAttributeNames: names } : {}),
    ...(condition ? { ConditionExpression: condition } : {}),
  },
});

/** The slug guard item of a record. */
export const slugGuard = (kind: PostKind | Taxonomy, lang: Lang, slug: string, id: number) =>
  put({ ...keys.slugGuard(kind, lang, slug), id });

/** Candidates read per step of a slug search. */
const SLUG_PAGE = 10;
/** A wanted slug whose counter handed out a ticket this recently is contended: skip the search. */
const SLUG_HOT_MS = 5_000;
/** Candidates a search reads before it takes a ticket instead (its RCU grow with the candidates). */
const SLUG_SEARCH_LIMIT = 1_000;

interface SlugCounter {
  /** The highest candidate number handed out (1 is the bare slug, 2 is `-2`, …). */
  n?: number;
  /** When the last ticket was handed out (ms since the epoch). */
  at?: number;
}

/** Reads guards in parallel BatchGets of up to 100 keys. */
async function readGuards(list: Key[]): Promise<Map<string, { id: number }>> {
  const parts: Key[][] = [];
  for (let i = 0; i < list.length; i += 100) parts.push(list.slice(i, i + 100));
  const found = await waitAll(parts.map((p) => batchGet<{ id: number }>(p)));
  return new Map(found.flatMap((m) => [...m]));
}

/**
 * A ticket from the wanted slug's counter: a candidate number no other ticket holder gets, at
 * least `floor` (the first candidate the caller saw free). The counter only grows: it is set to
 * `floor` while it is below it, else incremented; either way the value is new.
 */
async function slugTicket(counter: Key, floor: number, seen: number | undefined): Promise<number> {
  const now = Date.now();
  // An increment gives at least `seen + 1` (the counter only grows): setting is only worth a try
  // when the floor is above that.
  if (seen === undefined || floor > seen + 1) {
    try {
      await db().send(new UpdateCommand({
        TableName: table(),
        Key: counter,
        UpdateExpression: 'SET #n = :f, #at = :now',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :f',
        ExpressionAttributeNames: { '#n': 'n', '#at': 'at' },
        ExpressionAttributeValues: { ':f': floor, ':now': now },
      }));
      return floor;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }
  const out = await db().send(new UpdateCommand({
    TableName: table(),
    Key: counter,
    UpdateExpression: 'ADD #n :one SET #at = :now',
    ExpressionAttributeNames: { '#n': 'n', '#at': 'at' },
    ExpressionAttributeValues: { ':one': 1, ':now': now },
    ReturnValues: 'UPDATED_NEW',
  }));
  return Number(out.Attributes!.n);
}

/**
 * A slug for a record that wants `wanted` (`ownerId` keeps a record's own slug). The transaction
 * that writes the slug's guard settles any race; this only chooses well which candidate to try.
 *
 * - Without contention it is WordPress's answer: the first free of `wanted`, `wanted-2`,
 *   `wanted-3`… (ten guards per read, then ever larger parallel reads).
 * - After a lost race (`attempt` > 1), or while other writers of the same wanted slug are taking
 *   tickets (one was handed out in the last few seconds), each writer takes a ticket from the
 *   wanted slug's counter (one atomic update) and tries that candidate: contenders spread over
 *   distinct candidates at once instead of all colliding again on the next free one, and the
 *   first ticket is the first free candidate. A ticket's candidate may still be taken (a slug
 *   someone chose, or one written without a ticket); from the third attempt on, the ticket is
 *   taken above the first free candidate found past the counter.
 */
export async function freeSlug(kind: PostKind | Taxonomy, lang: Lang, wanted: string, ownerId?: number, attempt = 1): Promise<string> {
  const counterKey = keys.slugCounter(kind, lang, wanted);
  const guardKey = (s: string) => keys.slugGuard(kind, lang, s);
  const page = slugCandidates(wanted, SLUG_PAGE, 1);
  const read = await batchGet<{ id: number } & SlugCounter>([counterKey, ...page.map(guardKey)]);
  const counter = read.get(keyOf(counterKey));
  const seen = counter?.n === undefined ? undefined : Number(counter.n);
  /** The first candidate of `list` (numbered from `from`) that is free or the owner's own. */
  const firstOpen = (list: string[], guards: Map<string, { id: number }>, from: number) => {
    const i = list.findIndex((s) => {
      const g = guards.get(keyOf(guardKey(s)));
      return !g || g.id === ownerId;
    });
    return i < 0 ? undefined : { slug: list[i]!, n: from + i, own: guards.get(keyOf(guardKey(list[i]!)))?.id === ownerId && ownerId !== undefined };
  };
  const open = firstOpen(page, read, 1);
  // A guard the record holds already cannot be lost to anyone.
  if (open?.own) return open.slug;
  const hot = counter?.at !== undefined && Date.now() - Number(counter.at) < SLUG_HOT_MS;

  if (attempt <= 1 && !hot) {
    if (open) return open.slug;
    // Past the first page: read up to the counter's candidates in one step, then ever more.
    let from = SLUG_PAGE + 1;
    let size = Math.max(SLUG_PAGE * 2, (seen ?? 0) + SLUG_PAGE - from + 1);
    while (from <= SLUG_SEARCH_LIMIT) {
      size = Math.min(size, SLUG_SEARCH_LIMIT - from + 1);
      const list = slugCandidates(wanted, size, from);
      const found = firstOpen(list, await readGuards(list.map(guardKey)), from);
      if (found) return found.slug;
      from += size;
      size *= 2;
    }
  }

  let floor = open?.n ?? Math.max(SLUG_PAGE, seen ?? 0) + 1;
  if (!open && attempt > 2) {
    // Tickets above the counter keep meeting taken candidates: find the first free one there.
    for (let size = SLUG_PAGE; ; size = Math.min(size * 2, 400)) {
      const list = slugCandidates(wanted, size, floor);
      const found = firstOpen(list, await readGuards(list.map(guardKey)), floor);
      if (found) {
        floor = found.n;
        break;
      }
      floor += size;
    }
  }
  const ticket = await slugTicket(counterKey, floor, seen);
  return slugCandidates(wanted, 1, ticket)[0]!;
}

/**
 * The integer user id of a token subject, or undefined for a subject never seen: it owns nothing.
 * Reads use this, because a read function may not write (its role has read-only table access).
 */
export async function findUserId(sub: string): Promise<number | undefined> {
  return (await getItem<{ userId: number }>(keys.userBySub(sub)))?.userId;
}

/**
 * A new record's id and a free slug for it, read at once (one round trip instead of two): the
 * slug waits for the id only when `wanted` is empty, since it then falls back to the id. `id` is
 * the pending allocation (a create keeps one id over its retries).
 */
export async function idAndSlug(id: Promise<number>, kind: PostKind | Taxonomy, lang: Lang, wanted: string, attempt = 1): Promise<[number, string]> {
  if (wanted) return waitAll([id, freeSlug(kind, lang, wanted, undefined, attempt)]);
  const n = await id;
  return [n, await freeSlug(kind, lang, String(n), undefined, attempt)];
}

/** The integer user id of a token subject, allocated the first time the subject is seen (writes only). */
export async function userIdOf(sub: string): Promise<number> {
  return withRetry(async () => {
    const existing = await findUserId(sub);
    if (existing !== undefined) return existing;
    const id = await nextId('user');
    // If another request registers this subject first, the retry reads its id.
    await transact([put({ ...keys.userBySub(sub), userId: id }), put({ ...keys.userById(id), sub })]);
    return id;
  });
}

export async function userExists(id: number): Promise<boolean> {
  return (await getItem(keys.userById(id), false)) !== undefined;
}

export { ConditionalCheckFailedException };
