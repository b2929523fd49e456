// The id of a create sent with an Idempotency-Key (lib/http/idempotency.ts): every try of one key
// takes the id the first try took. A try whose outcome was unknown and that landed is then found
// by the next try, which answers with it; and a try that lands late and a new one cannot both be
// stored, as both write the same record (on the condition that it does not exist yet).
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import { TTL_ATTRIBUTE } from './table.js';
import { put, type TransactItem } from './transactions.js';

/** The partition of the records of retried creates: few and short-lived. */
export const IDEMPOTENCY_PARTITION = 'IDEMPOTENCY';
/** How long a key is remembered. */
export const IDEMPOTENCY_SECONDS = 24 * 60 * 60;

export interface CreateId {
  id: number;
  /** An earlier try of the same key took the id: its record may be stored already. */
  retried: boolean;
}

const keptItem = (key: string) => ({ pk: IDEMPOTENCY_PARTITION, sk: `id#${createHash('sha256').update(key).digest('hex')}` });

/** The id an earlier try of a create's key (`RequestContext.createKey`) took, if one did (none without a key). */
export async function earlierId(key: string | undefined): Promise<number | undefined> {
  if (key === undefined) return undefined;
  const kept = await db().send(new GetCommand({ TableName: config().tableName, Key: keptItem(key), ConsistentRead: true }));
  return kept.Item ? Number(kept.Item.id) : undefined;
}

/** The create's id: the one an earlier try of its key took, else one from `take`, kept for later tries. */
export async function createId(key: string | undefined, take: () => Promise<number>): Promise<CreateId> {
  if (key === undefined) return { id: await take(), retried: false };
  const kept = await earlierId(key);
  if (kept !== undefined) return { id: kept, retried: true };
  const id = await take();
  if (await keep(key, id)) return { id, retried: false };
  // Another try of the key kept its id first (Powertools lets one run at a time; this is the rest).
  return createId(key, take);
}

const keptId = (key: string, id: number) => ({ ...keptItem(key), id, [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + IDEMPOTENCY_SECONDS });

/**
 * Keeps `id` for `key` in the transaction that creates the record itself, on the condition that no
 * try of the key took an id before (one that did writes, or has written, the record its own way).
 */
export const keepInTransaction = (key: string, id: number): TransactItem => put(keptId(key, id));

/** Keeps `id` for `key` unless an id is kept for it already; whether it did. */
async function keep(key: string, id: number): Promise<boolean> {
  try {
    await db().send(new PutCommand({ TableName: config().tableName, Item: keptId(key, id), ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
    return false;
  }
}

/**
 * Gives a create key its id before any try of it (an import keeps the ids a site gave the
 * occurrences of a series): nothing when a try already took one.
 */
export async function reserveCreateId(key: string, id: number): Promise<void> {
  await keep(key, id);
}
