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
import { config, type Lang } from '../config.js';
import { db } from '../db.js';
import { ConflictError } from '../errors.js';
import { slugCandidates } from '../slug.js';
import { INDEXES } from '../table.js';
import { keys, type PostKind, type Sequence, type Taxonomy } from './keys.js';

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
      if (attempt) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
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

/**
 * Runs one all-or-nothing transaction. A failed condition on an item marked `conflict` (a slug
 * guard, a version check) becomes a ConflictError that callers retry; any other failed condition
 * is reported through `onFailed` with the index of the item.
 */
export async function transact(items: TransactItem[], onFailed?: (index: number) => Error | undefined): Promise<void> {
  if (items.length === 0) return;
  if (items.length > 100) throw new Error(`A transaction holds at most 100 items, got ${items.length}`);
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (err) {
    if (err instanceof TransactionCanceledException) {
      const reasons = err.CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) {
        const mapped = onFailed?.(failed);
        if (mapped) throw mapped;
        throw new ConflictError(`Condition failed on transaction item ${failed}`);
      }
      if (reasons.some((r) => r.Code === 'TransactionConflict')) throw new ConflictError('Transaction conflict');
    }
    throw err;
  }
}

/** Retries `fn` when it lost a race, a bounded number of times. */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, attempts = 8): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn(i);
    } catch (err) {
      if (!(err instanceof ConflictError) || i >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 5 * i + Math.random() * 10));
    }
  }
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

/** Replaces a record only if nobody wrote it since it was read (optimistic locking). */
export const putIfVersion = (item: { version: number }, readVersion: number): TransactItem => ({
  Put: {
    TableName: table(),
    Item: item as unknown as Record<string, unknown>,
    ConditionExpression: '#v = :v',
    ExpressionAttributeNames: { '#v': 'version' },
    ExpressionAttributeValues: { ':v': readVersion },
  },
});

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

/**
 * The first free slug among `wanted`, `wanted-2`, `wanted-3`…, checking ten guards per BatchGet.
 * `ownerId` keeps a record's own slug. The transaction that writes the guard settles any race.
 */
export async function freeSlug(kind: PostKind | Taxonomy, lang: Lang, wanted: string, ownerId?: number, attempt = 1): Promise<string> {
  for (let from = 1; from < 1000; from += 10) {
    const candidates = slugCandidates(wanted, 10, from);
    const guards = await batchGet<{ id: number }>(candidates.map((s) => keys.slugGuard(kind, lang, s)));
    const free = candidates.filter((s) => {
      const g = guards.get(keyOf(keys.slugGuard(kind, lang, s)));
      return !g || g.id === ownerId;
    });
    // After a lost race, concurrent writers wanting the same slug spread over the free candidates
    // instead of colliding on the first one again.
    if (free.length) return attempt > 1 ? free[Math.floor(Math.random() * Math.min(free.length, attempt))]! : free[0]!;
  }
  throw new ConflictError(`No free slug for ${wanted}`);
}

/**
 * The integer user id of a token subject, or undefined for a subject never seen: it owns nothing.
 * Reads use this, because a read function may not write (its role has read-only table access).
 */
export async function findUserId(sub: string): Promise<number | undefined> {
  return (await getItem<{ userId: number }>(keys.userBySub(sub)))?.userId;
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
