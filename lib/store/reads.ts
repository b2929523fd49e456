// Reads over the shared client: single items, batched reads, queries and counts. No Scan anywhere.
// They send the plain client's commands and marshal their own values (as the document client
// would), so that the middleware is resolved once per command type (lib/store/db.ts).
import { type AttributeValue, BatchGetItemCommand, GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { sendPlain } from './db.js';
import { attributes, plainItem } from './attributes.js';
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

const keyAttributes = (key: Key): Record<string, AttributeValue> => ({ pk: { S: key.pk }, sk: { S: key.sk } });

export async function getItem<T>(key: ItemKey<T>, consistent = true): Promise<T | undefined> {
  const out = await sendPlain(new GetItemCommand({ TableName: config().tableName, Key: keyAttributes(key), ConsistentRead: consistent }));
  return out.Item && plainItem<T>(out.Item);
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
      const out = await sendPlain(
        new BatchGetItemCommand({ RequestItems: { [config().tableName]: { Keys: pending.map(keyAttributes), ...(consistent ? { ConsistentRead: true } : {}) } } }),
      );
      for (const item of out.Responses?.[config().tableName] ?? []) found.set(`${item.pk?.S}|${item.sk?.S}`, plainItem<T>(item));
      pending = (out.UnprocessedKeys?.[config().tableName]?.Keys ?? []).map((k) => ({ pk: String(k.pk?.S), sk: String(k.sk?.S) }));
    }
    if (pending.length) throw new Error('BatchGet left keys unprocessed');
  };
  for (let i = 0; i < chunks.length; i += BATCH_PARALLEL) await waitAll(chunks.slice(i, i + BATCH_PARALLEL).map(readChunk));
  return found;
}

export const keyOf = (k: Key) => `${k.pk}|${k.sk}`;

/** A query's input, its values plain (as the document client takes them). */
type QueryInput = Omit<QueryCommandInput, 'TableName' | 'KeyConditions' | 'QueryFilter'>;

/** One page of a query, its values marshalled on the way out and unmarshalled on the way in. */
async function queryPage<T>(input: QueryInput): Promise<{ items: T[]; last?: Record<string, unknown>; count: number }> {
  const out = await sendPlain(
    new QueryCommand({
      ...input,
      TableName: config().tableName,
      ExpressionAttributeValues: attributes(input.ExpressionAttributeValues),
      ExclusiveStartKey: attributes(input.ExclusiveStartKey),
    }),
  );
  return { items: (out.Items ?? []).map((item) => plainItem<T>(item)), last: out.LastEvaluatedKey && plainItem(out.LastEvaluatedKey), count: out.Count ?? 0 };
}

export async function query<T>(input: QueryInput): Promise<{ items: T[]; last?: Record<string, unknown> }> {
  const { items, last } = await queryPage<T>(input);
  return { items, last };
}

/** Every item of a query, following pages. For bounded partitions (a record's link items). */
export async function queryAll<T>(input: QueryInput): Promise<T[]> {
  const items: T[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await queryPage<T>({ ...input, ExclusiveStartKey: start });
    items.push(...out.items);
    start = out.last;
  } while (start);
  return items;
}

/** Counts the matches of a query without returning them (Select COUNT), following pages. */
export async function count(input: Omit<QueryInput, 'Select'>): Promise<number> {
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await queryPage({ ...input, Select: 'COUNT', ExclusiveStartKey: start });
    total += out.count;
    start = out.last;
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
