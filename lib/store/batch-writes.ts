// Many writes that stand alone (the search index, the import's fingerprints), as few requests and
// commits as DynamoDB takes them: unconditional puts and deletes in batches, every other write on
// its own; or, for a target that asks for it, all of them in transactions of up to 100 items.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { pool } from '#lib/runtime/pool.js';

/** Where bulk writes go, and how they are committed. */
export interface BulkTarget {
  table: string;
  client: DynamoDBDocumentClient;
  /**
   * `transaction`: every write in TransactWriteItems of up to 100 items. DynamoDB Local commits
   * each item of a BatchWriteItem on its own (an SQLite transaction, with its file writes) and a
   * transaction as one: on disk a put then costs it 0.3 ms instead of 1.4–1.8 ms, and an update
   * 0.3 ms instead of 4–9 ms. On AWS a transaction costs twice the write units, so only a local
   * target (an import into DynamoDB Local) asks for it. Default `batch`.
   */
  commits?: 'batch' | 'transaction';
}

type Values = Record<string, unknown>;
interface Guarded {
  /** A guard, not a requirement: an action whose condition fails is left out. */
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Values;
}
/** One write, as a transaction names it, without its table. */
export type BulkAction = { Put: Guarded & { Item: Values } } | { Delete: Guarded & { Key: Values } } | { Update: Guarded & { Key: Values; UpdateExpression: string } };

/** A BatchWriteItem takes 25 requests. */
const BATCH_WRITES = 25;
/** A TransactWriteItems takes 100 actions and 4 MB: a group stays under both. */
const TRANSACT_ITEMS = 100;
const TRANSACT_BYTES = 3_500_000;
/** Transactions that collide with another write are tried again this many times, then one by one. */
const CONFLICT_RETRIES = 5;

const backoff = (attempt: number) => new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));

/** Puts items (unconditionally), `width` requests at once. */
export function putAll(items: readonly Values[], target: BulkTarget, width: number): Promise<void> {
  return commitAll(
    items.map((Item) => ({ Put: { Item } })),
    target,
    width,
  );
}

/** Deletes items by key the same way. */
export function deleteAll(keys: readonly Values[], target: BulkTarget, width: number): Promise<void> {
  return commitAll(
    keys.map((Key) => ({ Delete: { Key } })),
    target,
    width,
  );
}

/**
 * Writes every action, `width` requests at once; an action whose condition fails is left out. The
 * actions must stand alone: no order among them is kept, and a key written twice may be either.
 */
export async function commitAll(actions: readonly BulkAction[], target: BulkTarget, width: number): Promise<void> {
  if (target.commits === 'transaction') {
    await pool(transactionGroups(actions), width, (group) => transact(group, target));
    return;
  }
  // A batch may name an item once: the last write of a key stands.
  const plain = new Map<string, WriteRequest>();
  const rest: BulkAction[] = [];
  for (const a of actions)
    if (guardOf(a).ConditionExpression || 'Update' in a) rest.push(a);
    else plain.set(keyText(a), 'Put' in a ? { PutRequest: { Item: a.Put.Item } } : { DeleteRequest: { Key: a.Delete.Key } });
  await batchWrite([...plain.values()], target, width);
  await pool(rest, width, (a) => alone(a, target));
}

const guardOf = (a: BulkAction): Guarded => ('Put' in a ? a.Put : 'Delete' in a ? a.Delete : a.Update);
const keyText = (a: BulkAction) => {
  const k = 'Put' in a ? { pk: a.Put.Item.pk, sk: a.Put.Item.sk } : 'Delete' in a ? a.Delete.Key : a.Update.Key;
  return `${String(k.pk)}\u0000${String(k.sk)}`;
};

/** Groups of distinct keys (a transaction may name an item once), under a transaction's limits. */
function transactionGroups(actions: readonly BulkAction[]): BulkAction[][] {
  const groups: BulkAction[][] = [];
  let group: BulkAction[] = [];
  let seen = new Set<string>();
  let bytes = 0;
  for (const a of actions) {
    const size = JSON.stringify(a).length;
    const key = keyText(a);
    if (group.length && (group.length === TRANSACT_ITEMS || bytes + size > TRANSACT_BYTES || seen.has(key))) {
      groups.push(group);
      group = [];
      seen = new Set();
      bytes = 0;
    }
    group.push(a);
    seen.add(key);
    bytes += size;
  }
  if (group.length) groups.push(group);
  return groups;
}

const withTable = (a: BulkAction, TableName: string) =>
  'Put' in a ? { Put: { ...a.Put, TableName } } : 'Delete' in a ? { Delete: { ...a.Delete, TableName } } : { Update: { ...a.Update, TableName } };

/** One group as one transaction; one by one when a guard fails (or collisions go on). */
async function transact(group: BulkAction[], target: BulkTarget): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await target.client.send(new TransactWriteCommand({ TransactItems: group.map((a) => withTable(a, target.table)) }));
      return;
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const codes = (err.CancellationReasons ?? []).map((r) => r.Code);
      if (codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed') && attempt < CONFLICT_RETRIES) {
        await backoff(attempt);
        continue;
      }
      for (const a of group) await alone(a, target);
      return;
    }
  }
}

/** One action as its own request; a failed guard leaves it out, and one that met a transaction is tried again. */
async function alone(a: BulkAction, { table: TableName, client }: BulkTarget): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      if ('Put' in a) await client.send(new PutCommand({ ...a.Put, TableName }));
      else if ('Delete' in a) await client.send(new DeleteCommand({ ...a.Delete, TableName }));
      else await client.send(new UpdateCommand({ ...a.Update, TableName }));
      return;
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'ConditionalCheckFailedException') return;
      if (name !== 'TransactionConflictException' || attempt >= CONFLICT_RETRIES) throw err;
      await backoff(attempt);
    }
  }
}

type WriteRequest = { PutRequest: { Item: Values } } | { DeleteRequest: { Key: Values } };

/** BatchWriteItem, 25 at a time, `width` batches at once, until none is left unprocessed. */
async function batchWrite(requests: readonly WriteRequest[], { table, client }: BulkTarget, width: number): Promise<void> {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_WRITES) batches.push(requests.slice(i, i + BATCH_WRITES));
  await pool(batches, width, async (batch) => {
    let pending = batch;
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt) await backoff(attempt);
      const out = await client.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (out.UnprocessedItems?.[table] ?? []) as WriteRequest[];
    }
  });
}
