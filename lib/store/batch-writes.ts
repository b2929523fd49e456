// Unconditional puts of many items, as few requests as DynamoDB takes them: for writes that
// need no transaction (the search index, the import's fingerprints), where each item stands alone.
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { pool } from '#lib/runtime/pool.js';

/** A BatchWriteItem takes 25 requests. */
const BATCH_WRITES = 25;

/** Puts items with BatchWriteItem, 25 at a time, `width` batches at once, until none is left unprocessed. */
export async function putAll(items: readonly Record<string, unknown>[], { table, client }: { table: string; client: DynamoDBDocumentClient }, width: number): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += BATCH_WRITES) batches.push(items.slice(i, i + BATCH_WRITES) as Record<string, unknown>[]);
  await pool(batches, width, async (batch) => {
    let pending = batch.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
      const out = await client.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (out.UnprocessedItems?.[table] ?? []) as typeof pending;
    }
  });
}
