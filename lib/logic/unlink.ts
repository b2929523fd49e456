// Unlinking a venue, organizer or term from its events: each event loses the link, its card and
// its counts. Requests unlink a few; the stream consumer unlinks any number (lib/stream/cards-trigger.ts),
// so this module carries nothing but the store.
import { config } from '#lib/runtime/config.js';
import { getItem, type ItemKey } from '#lib/store/reads.js';
import { transact, transactEstimate } from '#lib/store/transactions.js';
import { fanOut, fanOutOrLeave, withRetry } from '#lib/store/retry.js';
import { keys } from '#lib/store/keys.js';
import { ofKind, type AnyPost, type EventItem, type LinkItem, type TermItem } from '#lib/store/items.js';
import { writeChecked, type Checked } from '#lib/store/precondition.js';
import { modifiedNow } from './common.js';
import { linkItems } from '#lib/store/partitions.js';
import { eventTransaction } from './event-writes.js';

const withoutCard = (cards: EventItem['cards'], id: number) => (cards ? Object.fromEntries(Object.entries(cards).filter(([k]) => Number(k) !== id)) : cards);

/** How many events are unlinked at once. */
const UNLINK_AT_ONCE = 16;

/** Time a request keeps, after unlinking, for its own write of the record: a transaction, and a little more. */
const ownWriteMs = () => transactEstimate() + 250;

/**
 * Removes every link item in the partition of `target` (a venue, organizer or term), rewriting each event
 * (each in its own transaction, several at once, while there is time; see `fanOut`), unless there
 * are more than `limit`: then nothing, and the stream consumer unlinks them
 * (lib/stream/cards-trigger.ts). Idempotent: an unlinked event has no link item left. A request
 * (a finite `limit`) likewise leaves to the consumer the events it has no time left for, so that a
 * slow table delays the unlinking but never fails the delete; the consumer unlinks every one.
 *
 * With `check` (the target, as a write's `If-Match` was checked against it), the first of these
 * transactions that writes the target (its counts) carries the checked version: until one has,
 * events are unlinked one at a time. Returns the check when none did, for the caller's own write.
 */
export async function unlinkEvents(
  target: ItemKey<AnyPost | TermItem>,
  drop: (e: EventItem) => EventItem,
  now: Date,
  limit = Infinity,
  check?: Checked,
): Promise<Checked | undefined> {
  const links = await linkItems(target.pk, { limit });
  if (!links) return check;
  // The stream consumer may unlink after the record itself was deleted: its counts are gone with
  // it, so the events' transactions must not update (or require) it.
  const gone = links.length > 0 && !(await getItem(target));
  const skip = gone ? new Set([target.pk]) : undefined;
  let due = check;
  const unlink = (link: LinkItem) =>
    withRetry(async () => {
      const old = ofKind(await getItem(keys.post(link.eventId)), 'event');
      if (!old) return;
      const next = { ...drop(old), ...modifiedNow(now), version: old.version + 1 };
      const tx = eventTransaction(old, next, config().tableName, { created: skip });
      if (await writeChecked(tx.items, due, () => transact(tx.items))) due = undefined;
    });
  let started = 0;
  while (due && !gone && started < links.length) await unlink(links[started++]!);
  const what = `Events still linked to ${target.pk}`;
  if (Number.isFinite(limit)) await fanOutOrLeave(links.slice(started), UNLINK_AT_ONCE, unlink, what, ownWriteMs);
  else await fanOut(links.slice(started), UNLINK_AT_ONCE, unlink, what);
  return due;
}

/** Unlinks a venue or organizer from all its events (their links, cards and counts). */
export function unlinkPlace(kind: 'venue' | 'organizer', id: number, now: Date, limit = Infinity, check?: Checked): Promise<Checked | undefined> {
  const field = kind === 'venue' ? 'venues' : 'organizers';
  return unlinkEvents(keys.post(id), (e) => ({ ...e, [field]: e[field].filter((x) => x !== id), cards: withoutCard(e.cards, id) }), now, limit, check);
}

/** Unlinks a category or tag from its events (a few here; all of them in the stream consumer). */
export function unlinkTerm(taxonomy: 'category' | 'tag', id: number, now: Date, limit = Infinity, check?: Checked): Promise<Checked | undefined> {
  const field = taxonomy === 'category' ? 'categories' : 'tags';
  return unlinkEvents(keys.term(id), (e) => ({ ...e, [field]: e[field].filter((x) => x !== id) }), now, limit, check);
}
