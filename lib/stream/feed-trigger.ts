// The change feed: one event on the bus (lib/stream/publisher.ts) per committed create, update,
// trash, restore and delete of an event, venue, organizer, category or tag. Failed writes never
// reach the stream, so they publish nothing.
//
// A stream record is delivered at least once (a failed batch is delivered again, records that had
// succeeded included), and EventBridge does not deduplicate. So each change is claimed first with
// a marker item (`FEED#<stream record id>`), put only if absent:
//   1. claim: put the marker (state `claimed`) if it does not exist;
//   2. publish with PutEvents (a refused entry throws);
//   3. mark the marker `published`.
// A redelivered change whose marker says `published` is skipped. One that says `claimed` failed
// after the claim and before step 3, so it is published again: a crash or error between steps 2
// and 3 therefore publishes the change twice. That window (one PutEvents call that succeeded but
// whose outcome was not recorded) is the at-least-once remainder, and why every event carries
// `changeId`: consumers that must not act twice dedupe on it. A failure before step 2 loses
// nothing, since the record fails and comes back.
//
// Markers expire (TTL) after two days: longer than the stream keeps records (24 hours), so no
// redelivery can outlive its marker.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { TTL_ATTRIBUTE } from '#lib/store/table.js';
import type { Change, ChangeAction, Trigger } from './change.js';
import { isBookkeepingOnly } from './decode.js';
import { FEED_SOURCE, feedPublisher, type FeedMessage } from './publisher.js';

/** How long a marker is kept. */
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

const PAST_TENSE: Record<ChangeAction, string> = { create: 'created', update: 'updated', trash: 'trashed', restore: 'restored', delete: 'deleted' };

/** The one feed event of a change. */
export function feedMessage(change: Change): FeedMessage {
  return {
    source: FEED_SOURCE,
    detailType: `${change.kind}.${PAST_TENSE[change.action]}`,
    detail: { kind: change.kind, id: change.id, lang: change.lang, action: change.action, revision: change.revision, at: change.at, changeId: change.eventId },
  };
}

/** Claims the change; false when it was published already (a redelivery). */
async function claim(change: Change, message: FeedMessage, now: Date): Promise<boolean> {
  const key = feedMarkerKey(change.eventId);
  const marker: FeedMarker = {
    ...key,
    state: 'claimed',
    detailType: message.detailType,
    claimedAt: now.toISOString(),
    [TTL_ATTRIBUTE]: Math.floor(now.getTime() / 1000) + MARKER_TTL_SECONDS,
  };
  try {
    await db().send(new PutCommand({ TableName: config().tableName, Item: marker, ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
  const { Item } = await db().send(new GetCommand({ TableName: config().tableName, Key: key, ConsistentRead: true }));
  // Claimed but not marked: an earlier attempt failed before recording its outcome; publish again.
  return (Item as FeedMarker | undefined)?.state !== 'published';
}

async function markPublished(change: Change, busEventId: string | undefined, now: Date): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: feedMarkerKey(change.eventId),
      UpdateExpression: busEventId ? 'SET #state = :published, #at = :at, #bus = :bus' : 'SET #state = :published, #at = :at',
      ExpressionAttributeNames: { '#state': 'state', '#at': 'publishedAt', ...(busEventId ? { '#bus': 'busEventId' } : {}) },
      ExpressionAttributeValues: { ':published': 'published', ':at': now.toISOString(), ...(busEventId ? { ':bus': busEventId } : {}) },
    }),
  );
}

export const feedTrigger: Trigger = {
  id: 'feed',
  // Counts, cards and versions that other records' writes bump are not edits of the record.
  wants: (change) => !isBookkeepingOnly(change),
  async apply(change) {
    const message = feedMessage(change);
    if (!(await claim(change, message, new Date()))) return;
    const [busEventId] = await feedPublisher().publish([message]);
    await markPublished(change, busEventId, new Date());
  },
};
