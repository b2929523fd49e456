// All-or-nothing writes: the items of a transaction (put, conditional put, update, delete, check)
// and the transaction itself, with the conflicts it reports.
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { config } from '#lib/runtime/config.js';
import { remainingMs, settleMs } from '#lib/runtime/deadline.js';
import { scopedValue } from '#lib/runtime/scope.js';
import { ConflictError, Contention, OutcomeUnknown } from '#lib/contract/errors.js';
import { db } from './db.js';
import type { Key } from './reads.js';
import { backoff, Durations, OutOfTime, sleep } from './retry.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The transaction kept meeting others on items (`items`, their keys): DynamoDB refused it each
 * time, and it wrote nothing.
 */
export class TransactionConflicted extends Contention {
  constructor(readonly items: Key[]) {
    super('Transaction conflict');
  }
}

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

/**
 * TransactWriteItems round trips of this process: the last ten, none older than five seconds, so
 * that a stall of the database is forgotten seconds after it ends, in every warm container.
 */
export const TRANSACT_TIMES_MAX_AGE_MS = 5_000;
const transactTimes = new Durations(50, 10, TRANSACT_TIMES_MAX_AGE_MS);
/** How long the next transaction may take, as the recent ones took: the time to keep for one. */
export const transactEstimate = (): number => transactTimes.estimate();
/** The most items DynamoDB takes in one TransactWriteItems. */
export const MAX_TRANSACT_ITEMS = 100;
/** Resends of a transaction that only met another transaction on one of its items. */
const CONFLICT_RESENDS = 4;

/** An operation's writes so far: whether one landed, and how many are out or ended without a known outcome. */
export class WriteLog {
  landed = false;
  unsettled = 0;
  /**
   * The request was answered with an error: a write of the operation still running (given up at
   * the function's timeout, it goes on) may not send anything more, or the answer would be wrong.
   */
  closed = false;
  /**
   * Whether a write landed, or may have: an error answer then cannot say that nothing was
   * written (lib/http/pipeline.ts answers that the outcome is unknown).
   */
  get mayHaveWritten(): boolean {
    return this.landed || this.unsettled > 0;
  }
}
const writeLog = scopedValue<WriteLog | undefined>('writes');

/** Runs `fn`, an operation, with `log` keeping the log of its writes. */
export const loggingWrites = <T>(log: WriteLog, fn: () => Promise<T>): Promise<T> => writeLog.run(log, fn);

/**
 * Runs `fn`, bookkeeping of the caller rather than the operation's change (registering a new
 * user's id): its writes are not the operation's, and an error answer may still say that nothing
 * of it was written.
 */
export const bookkeeping = <T>(fn: () => Promise<T>): Promise<T> => writeLog.run(undefined, fn);

/** Network errors after which the request may have reached DynamoDB and been carried out. */
const CUT_OFF = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);

/**
 * Whether a failed write may still have been carried out: no answer came (the deadline's abort, a
 * connection cut), DynamoDB failed on its side (5xx), or the transaction of the same token is
 * still running. Any other failure is DynamoDB's answer that nothing was written.
 */
export function outcomeOpen(err: unknown): boolean {
  const e = err as { name?: string; code?: string; $fault?: string };
  if (err instanceof OutcomeUnknown) return true;
  if (e.name === 'AbortError' || e.name === 'TransactionInProgressException') return true;
  return e.$fault === 'server' || CUT_OFF.has(e.code ?? '');
}

/** Runs one write request of the operation, logged: unsettled while it is out, and for good if its outcome stays open. */
export async function logWrite<T>(write: () => Promise<T>): Promise<T> {
  const log = writeLog.get();
  if (log?.closed) throw new OutOfTime('The request was answered before this write could be sent');
  if (log) log.unsettled++;
  let settled = true;
  try {
    const out = await write();
    if (log) log.landed = true;
    return out;
  } catch (err) {
    settled = !outcomeOpen(err);
    throw err;
  } finally {
    if (log && settled) log.unsettled--;
  }
}

/** An abort signal for the time left, none outside a request. */
export const abortAfter = (ms: number): AbortSignal | undefined => (Number.isFinite(ms) ? AbortSignal.timeout(Math.max(1, ms)) : undefined);

/** Resends of a transaction whose outcome is open, at most (outside a request, time does not end them). */
const SETTLE_RESENDS = 5;

/**
 * Sends a transaction with its ClientRequestToken, given up at the request's deadline. When no
 * answer says what became of it, the same transaction with the same token is sent again while
 * the answer margin allows (DynamoDB carries a token's transaction out once in ten minutes, and
 * answers a repeat of one it carried out with success): its answer is then the transaction's. If
 * none comes in time (or in a few resends), the outcome is unknown (OutcomeUnknown).
 */
async function sendOnce(items: TransactItem[]): Promise<void> {
  const input = { TransactItems: items, ClientRequestToken: randomUUID() };
  let open: unknown;
  for (let n = 0; ; n++) {
    const window = open === undefined ? remainingMs() : settleMs();
    if (window <= 0 || n > SETTLE_RESENDS) throw new OutcomeUnknown('The transaction was sent and its outcome did not come back in time', { cause: open });
    try {
      await db().send(new TransactWriteCommand(input), { abortSignal: abortAfter(window) });
      return;
    } catch (err) {
      if (!outcomeOpen(err)) throw err;
      open = err;
      // The first send may still be running at DynamoDB (TransactionInProgressException).
      await sleep(Math.max(0, Math.min(backoff(n + 1, 20, 200), settleMs() - 50)));
    }
  }
}

/** The key of a transaction item. */
const itemKey = (item: TransactItem | undefined): Key | undefined => {
  const op = item && (item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck);
  const key = (item?.Put ? item.Put.Item : (op as { Key?: Key } | undefined)?.Key) as Key | undefined;
  return key && { pk: key.pk, sk: key.sk };
};

const isSlugGuard = (item: TransactItem | undefined) => String((item?.Put?.Item as { pk?: unknown } | undefined)?.pk ?? '').startsWith('SLUG#');

/**
 * Runs one all-or-nothing transaction. A failed condition on an item is reported through
 * `onFailed` with the index of the item; unmapped, a slug guard's is a SlugTaken and any other a
 * ConflictError, which callers retry. A transaction that only met another one on an item (a
 * `TransactionConflict`: DynamoDB refuses concurrent transactions on one item rather than
 * queueing them) wrote nothing, and its items are still right (their conditions are checked
 * again), so it is sent again a few times after short jittered waits. It is never sent when the
 * request's deadline would pass before it can answer: a write that the client is told failed must
 * not land afterwards; one sent whose answer does not come back in time is sent again with its
 * token until one does, and otherwise is an OutcomeUnknown.
 */
export async function transact(
  items: TransactItem[],
  onFailed?: (index: number, current?: Record<string, unknown>) => Error | undefined,
  /** Whether its time counts in the estimate of the next (a large bookkeeping write's does not). */
  timed = true,
): Promise<void> {
  if (items.length === 0) return;
  if (items.length > MAX_TRANSACT_ITEMS) throw new Error(`A transaction holds at most ${MAX_TRANSACT_ITEMS} items, got ${items.length}`);
  for (let resend = 0; ; resend++) {
    try {
      const send = () => logWrite(() => sendOnce(items));
      await (timed ? transactTimes.time('commit the write', send) : (transactTimes.ensure('commit the write'), send()));
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
      const met = reasons.flatMap((r, i) => (r.Code === 'TransactionConflict' ? [itemKey(items[i])] : [])).filter((k): k is Key => !!k);
      if (!met.length) throw err;
      if (resend >= CONFLICT_RESENDS) throw new TransactionConflicted(met);
      const wait = backoff(resend + 1, 10, 100);
      transactTimes.ensure('commit the write', wait);
      await sleep(wait);
    }
  }
}

export const put = (item: object, condition: string | null = 'attribute_not_exists(pk)', values?: Record<string, unknown>): TransactItem => ({
  Put: {
    TableName: config().tableName,
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
    TableName: config().tableName,
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

export const del = (key: Key): TransactItem => ({ Delete: { TableName: config().tableName, Key: key } });

export const checkExists = (key: Key): TransactItem => ({
  ConditionCheck: { TableName: config().tableName, Key: key, ConditionExpression: 'attribute_exists(pk)' },
});

export const update = (key: Key, expression: string, values: Record<string, unknown>, names?: Record<string, string>, condition?: string): TransactItem => ({
  Update: {
    TableName: config().tableName,
    Key: key,
    UpdateExpression: expression,
    ExpressionAttributeValues: values,
    ...(names ? { ExpressionAttributeNames: names } : {}),
    ...(condition ? { ConditionExpression: condition } : {}),
  },
});
