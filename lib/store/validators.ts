// The table's change counter, from which the entity tags of reads are made (lib/http/revalidate.ts),
// so that a conditional GET reads a few small items instead of the whole answer.
//
// Why this shape:
// - A tag must change whenever an answer could. Any record's write can change many answers (an
//   event's list pages and feeds, a venue's events, a term's counts), so the counter is one for
//   the whole table: every change moves every tag. Pollers of an unchanged calendar get 304s.
// - It is bumped by whoever wrote, after the write committed and before the client is answered
//   (lib/http/pipeline.ts, for every write operation that may have written), and once more by the
//   stream consumer for each change, after the triggers that rewrite other records for it (cards,
//   unlinks: lib/stream/validators-trigger.ts). So a write is in the counter before anyone is told
//   it happened, without waiting for the stream; the consumer's bump covers what no request
//   bumped (a function that ended between its commit and its bump, imports, the consumer's own
//   rewrites), a moment later.
// - It is never in a write's transaction: a single item every transaction updated would make
//   concurrent writes conflict on it. The bump is a plain UpdateItem ADD, which DynamoDB applies
//   one after another without conflicts, on one of VALIDATOR_SHARDS items (a random one) of one
//   partition, whose sort keys let DynamoDB split a hot partition; a read takes them all with one
//   strongly consistent Query of a fraction of a read unit.
// - A read takes the counter before anything else, so an answer is never older than its tag: a
//   write that lands between the counter's read and the answer's only makes the next
//   revalidation read the answer again.
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import { keys, VALIDATOR_PARTITION, VALIDATOR_SHARDS } from './keys.js';
import { query } from './reads.js';

/** What a read's tag is made from: the counter's shards, and when it last moved (epoch ms, this side's clock). */
export interface Validator {
  /** The shards' counts, in shard order (`3.0.7…`); empty before the first write. */
  stamp: string;
  /** The latest bump's time, 0 before the first write. */
  last: number;
}

/**
 * The longest an eventually consistent read (a list index, a batch read) is taken to lag a write.
 * DynamoDB propagates to indexes in a fraction of a second when healthy; ten seconds is the margin.
 */
const SETTLE_SECONDS = 10;

/** Clocks of the writer that stamped the counter and of this function may differ by this much. */
const CLOCK_SKEW_MS = 1_000;

/**
 * How long after the counter last moved an eventually consistent read may still miss the write
 * that moved it. `REVALIDATE_SETTLE_SECONDS` replaces SETTLE_SECONDS (tests use DynamoDB Local,
 * whose reads are exact).
 */
export function readsLagMs(): number {
  const fromEnv = process.env.REVALIDATE_SETTLE_SECONDS;
  const settle = fromEnv !== undefined && /^\d+$/.test(fromEnv) ? Number(fromEnv) : SETTLE_SECONDS;
  return settle * 1000 + CLOCK_SKEW_MS;
}

/**
 * How long after the counter last moved an answer may still miss the write that moved it: the
 * lag of eventually consistent reads, or the age of kept terms if that is longer.
 */
export const settleMs = (): number => Math.max(readsLagMs(), config().termCacheSeconds * 1000 + CLOCK_SKEW_MS);

/** Whether the counter has not moved for `lagMs`: every write it counts is then in every read that lags no more. */
export const settled = (v: Validator, lagMs: number, now = Date.now()): boolean => now - v.last >= lagMs;

/**
 * How long a counter read may stand for the counter in this process, for the tag of a read without
 * `If-None-Match` (keptValidator).
 */
const KEPT_MS = 1_000;

/** The last counter read of each table in this process, and when it was sent. */
const kept = new Map<string, { at: number; value: Promise<Validator> }>();

/** Moves the counter: one shard, chosen at random unless given; in the function's table unless `target` names another. */
export async function bumpValidator(
  shard = Math.floor(Math.random() * VALIDATOR_SHARDS),
  now = Date.now(),
  abortSignal?: AbortSignal,
  target?: { table: string; client: DynamoDBDocumentClient },
): Promise<void> {
  // What this process read before its own write no longer stands for the counter here.
  kept.delete(target?.table ?? config().tableName);
  await (target?.client ?? db()).send(
    new UpdateCommand({
      TableName: target?.table ?? config().tableName,
      Key: keys.validator(shard % VALIDATOR_SHARDS),
      UpdateExpression: 'ADD #n :one SET #at = :at',
      ExpressionAttributeNames: { '#n': 'n', '#at': 'at' },
      ExpressionAttributeValues: { ':one': 1, ':at': now },
    }),
    { abortSignal },
  );
}

/**
 * The counter as this process read it less than KEPT_MS ago, else as it is now. For the tag of an
 * answer (lib/http/revalidate.ts) that no conditional GET is checked against: a tag made from a
 * counter older than the answer can never match a later read of the counter once it moved (it
 * only moves up), so the next conditional GET computes the answer again; and an answer that may
 * miss a write gets its body's digest whenever the counter moved within the settling time, which
 * `last` still says of every bump the kept read saw. A conditional GET reads it fresh
 * (readValidator): a 304 must know of every write its client may have been told of.
 */
export function keptValidator(now = Date.now()): Promise<Validator> {
  const hit = kept.get(config().tableName);
  return hit && now - hit.at < KEPT_MS ? hit.value : readValidator(now);
}

/** The counter as it is now: one strongly consistent Query of its partition (a write answered a moment ago is in it). */
export function readValidator(now = Date.now()): Promise<Validator> {
  const table = config().tableName;
  const value = queryValidator();
  kept.set(table, { at: now, value });
  // A failed read is not kept.
  value.catch(() => kept.get(table)?.value === value && kept.delete(table));
  return value;
}

async function queryValidator(): Promise<Validator> {
  const out = await query<{ sk: string; n?: number; at?: number }>({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeNames: { '#n': 'n', '#at': 'at' },
    ExpressionAttributeValues: { ':pk': VALIDATOR_PARTITION },
    ProjectionExpression: 'sk, #n, #at',
    ConsistentRead: true,
  });
  const counts = new Array<number>(VALIDATOR_SHARDS).fill(0);
  let last = 0;
  for (const item of out.items) {
    const shard = Number(item.sk);
    if (Number.isInteger(shard) && shard >= 0 && shard < VALIDATOR_SHARDS) counts[shard] = Number(item.n ?? 0);
    last = Math.max(last, Number(item.at ?? 0));
  }
  return { stamp: last === 0 ? '' : counts.join('.'), last };
}
