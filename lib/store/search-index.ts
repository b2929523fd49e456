// The writes of the search index (lib/stream/search-trigger.ts says what it holds and why each
// step is idempotent), to the function's table or to the table a backfill names, and the Scan a
// backfill reads events with (lib/stream/backfill.ts).
import { BatchGetCommand, ScanCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { commitAll, type BulkAction, type BulkTarget } from './batch-writes.js';
import type { Lang } from '#lib/runtime/config.js';
import { DURATIONS } from './durations.js';
import { keys } from './keys.js';
import type { EventItem } from './items.js';
import type { Key } from './reads.js';

/** Where the index is written: the function's table, or the table a backfill names. */
export type IndexTarget = BulkTarget;

/** How many index writes run at once. */
export const WIDTH = 16;
/** A BatchGetItem takes 100 keys. */
const BATCH_KEYS = 100;

/** The words whose own vocabulary entry (the suffix that is the whole word) is not written yet. */
export async function wordsNotInVocabulary(lang: Lang, words: readonly string[], { table, client }: IndexTarget): Promise<string[]> {
  const missing: string[] = [];
  for (let i = 0; i < words.length; i += BATCH_KEYS) {
    let ask: Record<string, unknown>[] | undefined = words.slice(i, i + BATCH_KEYS).map((w) => keys.vocab(lang, w, w));
    const found = new Set<string>();
    while (ask?.length) {
      const out: BatchGetCommandOutput = await client.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: ask, ProjectionExpression: 'sk' } } }));
      for (const item of out.Responses?.[table] ?? []) found.add(String(item.sk));
      ask = out.UnprocessedKeys?.[table]?.Keys;
    }
    missing.push(...words.slice(i, i + BATCH_KEYS).filter((w) => !found.has(keys.vocab(lang, w, w).sk)));
  }
  return missing;
}

/**
 * One bucket item's change: event ids added to (and removed from) its days' sets, and duration
 * classes its events reach (lib/store/durations.ts). Set ADD and DELETE: sent again, it changes nothing.
 */
export interface BucketChange {
  add: ReadonlyMap<string, ReadonlySet<number>>;
  remove?: ReadonlyMap<string, ReadonlySet<number>>;
  durations?: ReadonlySet<number>;
}

/** The write of one bucket item's change; none when it changes nothing. */
export function bucketChange(key: Key, change: BucketChange): BulkAction | undefined {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  let n = 0;
  const term = (attribute: string, value: unknown) => {
    names[`#a${n}`] = attribute;
    values[`:a${n}`] = value;
    return `#a${n} :a${n++}`;
  };
  const adds = [...change.add].map(([day, ids]) => term(day, ids));
  if (change.durations?.size) adds.push(term(DURATIONS, change.durations));
  const removes = [...(change.remove ?? [])].map(([day, ids]) => term(day, ids));
  const clauses = [...(adds.length ? [`ADD ${adds.join(', ')}`] : []), ...(removes.length ? [`DELETE ${removes.join(', ')}`] : [])];
  if (!clauses.length) return undefined;
  return { Update: { Key: key, UpdateExpression: clauses.join(' '), ExpressionAttributeNames: names, ExpressionAttributeValues: values } };
}

/** Applies one bucket item's change. */
export async function changeBucket(key: Key, change: BucketChange, target: IndexTarget): Promise<void> {
  const action = bucketChange(key, change);
  if (action) await commitAll([action], target, 1);
}

/** One page of one segment of a parallel Scan for event records. */
export async function scanEvents(
  { table, client }: IndexTarget,
  segment: { n: number; of: number },
  start: Record<string, unknown> | undefined,
): Promise<{ events: EventItem[]; scanned: number; last?: Record<string, unknown> }> {
  const page = await client.send(
    new ScanCommand({
      TableName: table,
      Segment: segment.n,
      TotalSegments: segment.of,
      FilterExpression: '#sk = :post AND #kind = :event',
      ExpressionAttributeNames: { '#sk': 'sk', '#kind': 'kind' },
      ExpressionAttributeValues: { ':post': 'POST', ':event': 'event' },
      ExclusiveStartKey: start,
    }),
  );
  return { events: (page.Items ?? []) as EventItem[], scanned: page.ScannedCount ?? 0, last: page.LastEvaluatedKey };
}
