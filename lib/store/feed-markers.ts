// The change feed's markers (lib/stream/feed-trigger.ts says why each change is claimed before it
// is published): one item per stream record, `FEED#<stream record id>`, expiring after two days.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import { TTL_ATTRIBUTE } from './table.js';

/** How long a marker is kept: longer than the stream keeps records (24 hours). */
export const MARKER_TTL_SECONDS = 2 * 24 * 60 * 60;

export const feedMarkerKey = (changeId: string) => ({ pk: `FEED#${changeId}`, sk: 'FEED' });

export interface FeedMarker {
  pk: string;
  sk: string;
  state: 'claimed' | 'published';
  /** What was published, for whoever reads the table. */
  detailType: string;
  claimedAt: string;
  publishedAt?: string;
  /** The bus's id of the published event. */
  busEventId?: string;
  [TTL_ATTRIBUTE]: number;
}

/**
 * Claims a change: puts its marker unless one exists. True when the change is to be published:
 * newly claimed, or claimed by an earlier attempt that failed before it marked it published.
 */
export async function claimFeedMarker(changeId: string, detailType: string, now: Date): Promise<boolean> {
  const key = feedMarkerKey(changeId);
  const marker: FeedMarker = { ...key, state: 'claimed', detailType, claimedAt: now.toISOString(), [TTL_ATTRIBUTE]: Math.floor(now.getTime() / 1000) + MARKER_TTL_SECONDS };
  try {
    await db().send(new PutCommand({ TableName: config().tableName, Item: marker, ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
  const { Item } = await db().send(new GetCommand({ TableName: config().tableName, Key: key, ConsistentRead: true }));
  return (Item as FeedMarker | undefined)?.state !== 'published';
}

/** Marks a claimed change published, with the bus's id of its event. */
export async function markFeedPublished(changeId: string, busEventId: string | undefined, now: Date): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: feedMarkerKey(changeId),
      UpdateExpression: busEventId ? 'SET #state = :published, #at = :at, #bus = :bus' : 'SET #state = :published, #at = :at',
      ExpressionAttributeNames: { '#state': 'state', '#at': 'publishedAt', ...(busEventId ? { '#bus': 'busEventId' } : {}) },
      ExpressionAttributeValues: { ':published': 'published', ':at': now.toISOString(), ...(busEventId ? { ':bus': busEventId } : {}) },
    }),
  );
}
