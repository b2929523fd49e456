// What the import keeps between runs (lib/import/writer.ts): each imported record's fingerprint,
// so that a record unchanged on the site is not written again, and when the last run started.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { putAll, type BulkTarget } from './batch-writes.js';
import { db } from './db.js';
import { queryAll } from './reads.js';

const PARTITION = 'IMPORT';
const FINGERPRINT = 'fp#';
const fingerprintKey = (record: string) => ({ pk: PARTITION, sk: `${FINGERPRINT}${record}` });
const RUN_KEY = { pk: PARTITION, sk: 'run' };

/** The stored fingerprints of imported records, by their name (`kind#id`). */
export async function storedFingerprints(): Promise<Map<string, string>> {
  const items = await queryAll<{ sk: string; fp: string }>({
    KeyConditionExpression: 'pk = :p AND begins_with(sk, :f)',
    ExpressionAttributeValues: { ':p': PARTITION, ':f': FINGERPRINT },
  });
  return new Map(items.map((i) => [i.sk.slice(FINGERPRINT.length), i.fp]));
}

/** Fingerprints written together when this many are waiting (a batch of DynamoDB's writes, or a transaction's). */
const FINGERPRINT_BATCH = { batch: 25, transaction: 100 } as const;

/**
 * Keeps fingerprints and writes them a batch at a time: one request for 25 (or 100) records instead of one each.
 * A run stopped before `flush` loses the ones waiting, so their records are written again next
 * time (the same values), as when a run stops between a record and its fingerprint.
 */
export function fingerprintLog(commits: BulkTarget['commits'] = 'batch') {
  let waiting: Record<string, unknown>[] = [];
  const write = async () => {
    const items = waiting;
    waiting = [];
    if (items.length) await putAll(items, { table: config().tableName, client: db(), commits }, 1);
  };
  return {
    add: async (record: string, fp: string) => {
      waiting.push({ ...fingerprintKey(record), fp });
      if (waiting.length >= FINGERPRINT_BATCH[commits]) await write();
    },
    flush: write,
  };
}

export const deleteFingerprint = async (record: string) => {
  await db().send(new DeleteCommand({ TableName: config().tableName, Key: fingerprintKey(record) }));
};

/** When the last finished run started (ISO 8601), the default of `--since`. */
export async function lastRun(): Promise<string | undefined> {
  const out = await db().send(new GetCommand({ TableName: config().tableName, Key: RUN_KEY, ConsistentRead: true }));
  return out.Item?.startedAt as string | undefined;
}

export async function rememberRun(startedAt: string, source: string): Promise<void> {
  await db().send(new PutCommand({ TableName: config().tableName, Item: { ...RUN_KEY, startedAt, source } }));
}
