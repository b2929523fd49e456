// Unconditional puts and deletes of many items, as few requests as DynamoDB takes them: for writes that
// need no transaction (the search index, the import's fingerprints), where each item stands alone.
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { pool } from '#lib/runtime/pool.js';

/** A BatchWriteItem takes 25 requests. */
const BATCH_WRITES = 25;

/** Puts items with BatchWriteItem, 25 at a time, `width` batches at once, until none is left unprocessed. */
export function putAll(items: readonly Record<string, unknown>[], target: { table: string; client: DynamoDBDocumentClient }, width: number): Promise<void> {
  return writeAll(
    items.map((Item) => ({ PutRequest: { Item } })),
    target,
    width,
  );
}

/** Deletes items by key the same way. */
export function deleteAll(keys: readonly Record<string, unknown>[], target: { table: string; client: DynamoDBDocumentClient }, width: number): Promise<void> {
  return writeAll(
    keys.map((Key) => ({ DeleteRequest: { Key } })),
    target,
    width,
  );
}

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

async function writeAll(requests: readonly WriteRequest[], { table, client }: { table: string; client: DynamoDBDocumentClient }, width: number): Promise<void> {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_WRITES) batches.push(requests.slice(i, i + BATCH_WRITES));
  await pool(batches, width, async (batch) => {
    let pending = batch;
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
      const out = await client.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (out.UnprocessedItems?.[table] ?? []) as WriteRequest[];
    }
  });
}
