// Per-language figures kept beside the data (one small item per language): the longest event
// duration, which every event write raises and adds to its count buckets (lib/store/durations.ts),
// and about how many bytes the language's terms take. Lists read it only for buckets written
// before they carried durations, and to choose how lists other than an index page read terms.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config, type Lang } from '#lib/runtime/config.js';
import { db } from './db.js';
import { getItem } from './reads.js';
import { keys } from './keys.js';
import { raiseTo } from './raise.js';
import type { LangStats } from './items.js';

export type { LangStats } from './items.js';

export const readStats = async (lang: Lang): Promise<LangStats> => (await getItem(keys.langStats(lang), false)) ?? {};

/** About what DynamoDB counts as an item's size: its attribute names and values as JSON. */
export const itemBytes = (item: object) => Buffer.byteLength(JSON.stringify(item));

/** Per table and language, a value the stored longest duration is known to have reached. */
const knownMax = new Map<string, number>();

/**
 * Raises the longest duration to at least `seconds`, and answers a duration at least that long
 * and at least the stored value this process learned: at least every event of the language stored
 * before it first raised it. An event write adds it to its count buckets (lib/store/durations.ts),
 * so a bucket that also holds events written before buckets carried durations is bounded too.
 * Called before the event's write, so it is never below a stored event's duration; a failed write
 * only leaves it larger than needed. The stored value only grows, so once this process has seen it
 * at or above `seconds` there is nothing to write: most event writes send nothing here.
 */
export async function durationBound(lang: Lang, seconds: number): Promise<number> {
  const key = `${config().tableName}|${lang}`;
  const known = knownMax.get(key) ?? -1;
  if (known >= seconds) return known;
  const stored = await raiseTo(keys.langStats(lang), 'seconds', seconds);
  knownMax.set(key, Math.max(knownMax.get(key) ?? -1, stored));
  return knownMax.get(key)!;
}

/**
 * Moves the terms' size by `delta` after a term write. It only chooses between two correct ways
 * of reading terms, so it is kept outside the write's transaction (no contention on this item).
 */
export async function addTermBytes(lang: Lang, delta: number): Promise<void> {
  if (delta === 0) return;
  await db().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: keys.langStats(lang),
      UpdateExpression: 'ADD #b :d',
      ExpressionAttributeNames: { '#b': 'termBytes' },
      ExpressionAttributeValues: { ':d': delta },
    }),
  );
}
