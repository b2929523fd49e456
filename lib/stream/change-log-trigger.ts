// The change log (lib/store/change-log.ts): one entry per committed create, update, trash, restore
// and delete of an event, venue, organizer, category or tag, in the record's language, for
// `GET /changes`. Bookkeeping that other records' writes maintain (counts, cards, versions) is not
// an edit of the record, as for the change feed. A redelivered change appends nothing.
import { appendChange } from '#lib/store/change-log.js';
import type { Change, Trigger } from './change.js';
import { isBookkeepingOnly } from './decode.js';

/**
 * Whether an anonymous caller could read the record as this image has it: a published post
 * without a password, or any term. Kept with the entry, so that a record anonymous callers never
 * saw is not reported to them as deleted.
 */
export function publicImage(image: Record<string, unknown> | undefined): boolean {
  if (!image) return false;
  if (image.taxonomy !== undefined) return true;
  return image.status === 'publish' && !image.password;
}

export const changeLogTrigger: Trigger = {
  id: 'changes',
  wants: (change) => !isBookkeepingOnly(change),
  async apply(change: Change) {
    await appendChange({
      lang: change.lang,
      kind: change.kind,
      id: change.id,
      action: change.action,
      at: change.at,
      wasPublic: publicImage(change.old),
      changeId: change.eventId,
      sequence: change.sequence,
    });
  },
};
