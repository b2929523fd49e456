// Reads over the shared client: single items, batched reads, queries and counts. No Scan anywhere.
import { BatchGetCommand, GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import { INDEXES } from './table.js';
import type { AnyPost, TermItem } from './items.js';
import { sleep } from './retry.js';
import { waitAll } from '#lib/runtime/settle.js';

export type Key = { pk: string; sk: string };

declare const stored: unique symbol;
/**
 * A key that names the type of the item stored under it (a phantom field, never present at run
 * time): reads by it answer that type, so that no caller casts what it reads. Keys are made by
 * the key builders (./keys.ts), the one place that says what each partition holds.
 */
export type ItemKey<T> = Key & { readonly [stored]: T };

/** Names the type stored under a key: for key builders only. */
export const itemKey = <T>(pk: string, sk: string): ItemKey<T> => ({ pk, sk }) as ItemKey<T>;

export async function getItem<T>(key: ItemKey<T>, consistent = true): Promise<T | undefined> {
  const out = await db().send(new GetCommand({ TableName: config().tableName, Key: { pk: key.pk, sk: key.sk }, ConsistentRead: consistent }));
  return out.Item as T | undefined;
}

/**
 * The items of a batch read by their `keyOf`; `get` also takes the typed key itself and answers
 * the type that key names.
 */
export class Found<T> extends Map<string, T> {
  override get(key: string): T | undefined;
  override get<U extends T>(key: ItemKey<U>): U | undefined;
  override get(key: string | Key): T | undefined {
    return super.get(typeof key === 'string' ? key : keyOf(key));
  }
}

/** How many BatchGet requests of one read are out at once. */
const BATCH_PARALLEL = 4;

/**
 * Reads many items in as few BatchGet requests as DynamoDB allows (100 keys each), up to
 * BATCH_PARALLEL of them at a time: a feed of 1,000 events waits for three round trips, not ten.
 * Every request settles before the read answers or fails (waitAll), so none outlives it.
 */
export async function batchGet<T>(list: readonly ItemKey<T>[], consistent = false): Promise<Found<T>> {
  const found = new Found<T>();
  const unique = [...new Map(list.map((k) => [`${k.pk}|${k.sk}`, { pk: k.pk, sk: k.sk }])).values()];
  const chunks: Key[][] = [];
  for (let i = 0; i < unique.length; i += 100) chunks.push(unique.slice(i, i + 100));
  const readChunk = async (keys: Key[]) => {
    let pending = keys;
    for (let attempt = 0; pending.length && attempt < 8; attempt++) {
      if (attempt) await sleep(20 * 2 ** attempt);
      const out = await db().send(new BatchGetCommand({ RequestItems: { [config().tableName]: { Keys: pending, ...(consistent ? { ConsistentRead: true } : {}) } } }));
      for (const item of out.Responses?.[config().tableName] ?? []) found.set(`${item.pk}|${item.sk}`, item as T);
      pending = (out.UnprocessedKeys?.[config().tableName]?.Keys as Key[] | undefined) ?? [];
    }
    if (pending.length) throw new Error('BatchGet left keys unprocessed');
  };
  for (let i = 0; i < chunks.length; i += BATCH_PARALLEL) await waitAll(chunks.slice(i, i + BATCH_PARALLEL).map(readChunk));
  return found;
}

export const keyOf = (k: Key) => `${k.pk}|${k.sk}`;

export async function query<T>(input: Omit<QueryCommandInput, 'TableName'>): Promise<{ items: T[]; last?: Record<string, unknown> }> {
  const out = await db().send(new QueryCommand({ TableName: config().tableName, ...input }));
  return { items: (out.Items ?? []) as T[], last: out.LastEvaluatedKey };
}

/** Every item of a query, following pages. For bounded partitions (a record's link items). */
export async function queryAll<T>(input: Omit<QueryCommandInput, 'TableName'>): Promise<T[]> {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new QueryCommand({ TableName: config().tableName, ...input, ExclusiveStartKey: start }));
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
    const out = await db().send(new QueryCommand({ TableName: config().tableName, ...input, Select: 'COUNT', ExclusiveStartKey: start }));
    total += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return total;
}

/** The record (post or term) the `bySlug` index holds under a key (lib/store/partitions.ts names them). */
export async function bySlug(indexKey: string): Promise<AnyPost | TermItem | undefined> {
  const out = await query<AnyPost | TermItem>({
    IndexName: INDEXES.bySlug.indexName,
    KeyConditionExpression: '#k = :k',
    ExpressionAttributeNames: { '#k': INDEXES.bySlug.partitionKey },
    ExpressionAttributeValues: { ':k': indexKey },
    Limit: 1,
  });
  return out.items[0];
}
