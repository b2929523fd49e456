// Completes, from the change stream, what a request leaves to it: every linked event gets a
// venue's or organizer's new card after an edit, and loses its links (and card) when the venue,
// organizer, category or tag is trashed or deleted, however many events there are. Both are
// idempotent (a card is only replaced by a newer one; an unlinked event has no link item left).
import { refreshCards } from '#lib/logic/cards.js';
import { unlinkPlace, unlinkTerm } from '#lib/logic/unlink.js';
import { postImage, type Change, type Trigger } from './change.js';

const isPlace = (c: Change): c is Change & { kind: 'venue' | 'organizer' } => c.kind === 'venue' || c.kind === 'organizer';
const gone = (c: Change) => c.action === 'trash' || c.action === 'delete';

export const cardsTrigger: Trigger = {
  id: 'cards',
  wants: (c) => isPlace(c) || ((c.kind === 'category' || c.kind === 'tag') && c.action === 'delete'),
  async apply(c) {
    const now = new Date();
    if (c.kind === 'category' || c.kind === 'tag') {
      await unlinkTerm(c.kind, c.id, now);
      return;
    }
    if (!isPlace(c)) return;
    if (gone(c)) {
      await unlinkPlace(c.kind, c.id, now);
      return;
    }
    const place = postImage(c.new, c.kind);
    const before = postImage(c.old, c.kind);
    // Only an edit of the record makes a new card (a new `rev`); event writes that only move its
    // bookkeeping (`linkedEvents`) do not. A record still in the trash has no linked events.
    if (place && place.status !== 'trash' && (place.rev ?? 0) !== (before?.rev ?? 0)) await refreshCards(place);
  },
};
