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
import { claimFeedMarker, markFeedPublished } from '#lib/store/feed-markers.js';
import type { Change, ChangeAction, Trigger } from './change.js';
import { isBookkeepingOnly } from './decode.js';
import { FEED_SOURCE, feedPublisher, type FeedMessage } from './publisher.js';

export { feedMarkerKey } from '#lib/store/feed-markers.js';

const PAST_TENSE: Record<ChangeAction, string> = { create: 'created', update: 'updated', trash: 'trashed', restore: 'restored', delete: 'deleted' };

/** The one feed event of a change. */
export function feedMessage(change: Change): FeedMessage {
  return {
    source: FEED_SOURCE,
    detailType: `${change.kind}.${PAST_TENSE[change.action]}`,
    detail: { kind: change.kind, id: change.id, lang: change.lang, action: change.action, revision: change.revision, at: change.at, changeId: change.eventId },
  };
}

export const feedTrigger: Trigger = {
  id: 'feed',
  // Counts, cards and versions that other records' writes bump are not edits of the record.
  wants: (change) => !isBookkeepingOnly(change),
  async apply(change) {
    const message = feedMessage(change);
    // Claimed first: false when it was published already (a redelivery).
    if (!(await claimFeedMarker(change.eventId, message.detailType, new Date()))) return;
    const [busEventId] = await feedPublisher().publish([message]);
    await markFeedPublished(change.eventId, busEventId, new Date());
  },
};
