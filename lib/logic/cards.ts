// Cards: the copies of venues and organizers that events carry, so that a page of events is
// presented from its event records alone. Reading each linked record instead costs at least half
// a capacity unit per venue or organizer, and a page shares fewer of them as the calendar grows.
//
// Cards stay current because:
// - a write that takes a card from a record it read checks the record's `rev` in its transaction
//   (lib/logic/event-writes.ts), so a card is never older than the record at commit time;
// - a venue's or organizer's edit then rewrites the cards of every linked event (its link
//   items, read consistently), and only with a newer `rev`, bumping the event's version and index
//   version so that a concurrent event write retries instead of putting an old card back. The
//   request does it itself for a few events (so that its client reads its own edit at once), and
//   the stream consumer does it for all of them (lib/stream/cards-trigger.ts), however many;
// - trashing or deleting a venue or organizer unlinks it from its events, cards included (the
//   same way: a few in the request, all of them in the consumer);
// - a record too large to copy well (a long description) gets no card: events read it instead.
import { writeCard } from '#lib/store/event-cards.js';
import { backoff, Durations, fanOut, sleep } from '#lib/store/retry.js';
import { keys } from '#lib/store/keys.js';
import { itemBytes } from '#lib/store/stats.js';
import type { Card, CardOmitted, EventItem, OrganizerItem, VenueItem } from '#lib/store/items.js';
import { linkItems } from '#lib/store/partitions.js';

type Place = VenueItem | OrganizerItem;

const OMITTED: readonly CardOmitted[] = ['pk', 'sk', 'gsi1pk', 'gsi2pk', 'gsi2sk', 'version', 'linkedEvents', 'shards', 'shardGen', 'trashedFrom', 'trashedByRules'];

export function cardOf(place: Place): Card {
  const card: Record<string, unknown> = { ...place };
  for (const k of OMITTED) delete card[k];
  return card as unknown as Card;
}

/** Larger cards are not copied: up to 13 per event, they would make every read of it dearer. */
export const CARD_MAX_BYTES = 4096;
const fits = (card: Card) => itemBytes(card) <= CARD_MAX_BYTES;

const newer = (a: Card | undefined, b: Card | undefined) => !b || (a?.rev ?? 0) > (b.rev ?? 0);

/**
 * The cards of an event's venues and organizers: from records read for this write when they are
 * newer than the event's current cards, else the current ones.
 */
export function cardsFor(e: Pick<EventItem, 'venues' | 'organizers'>, read: Map<number, Place>, current: EventItem['cards'] = {}): Record<string, Card> {
  const cards: Record<string, Card> = {};
  for (const id of [...e.venues, ...e.organizers]) {
    const fresh = read.get(id) && cardOf(read.get(id)!);
    const card = fresh && newer(fresh, current[id]) ? fresh : current[id];
    if (card && fits(card)) cards[id] = card;
  }
  return cards;
}

/** Cards `next` took from a read (new or changed since `old`): their records' `rev` must hold. */
export function readCards(old: EventItem | undefined, next: EventItem | undefined): Map<number, number | undefined> {
  const out = new Map<number, number | undefined>();
  for (const [id, card] of Object.entries(next?.cards ?? {})) {
    const before = old?.cards?.[id];
    if (!before || before.rev !== card.rev) out.set(Number(id), card.rev);
  }
  return out;
}

/** How many card rewrites run at once after an edit. */
const FAN_OUT = 16;

/**
 * How many linked events a request rewrites or unlinks itself; beyond that it leaves them all to
 * the stream consumer and answers after its own write.
 */
export const REQUEST_FAN_OUT = 25;

/**
 * After a venue's or organizer's edit: the new card in every linked event (or no card, when it
 * is too large), unless there are more than `limit` (then nothing: the consumer does them). Every
 * event is tried even if some fail; a failure is thrown at the end, and the stream consumer, which
 * does the same for every edit, completes it. Returns how many events got the new card.
 */
export async function refreshCards(place: Place, limit = Infinity): Promise<number> {
  const links = await linkItems(keys.post(place.id).pk, { attributes: ['eventId'], limit });
  if (!links) return 0;
  const card = cardOf(place);
  const field = place.kind === 'venue' ? 'venues' : 'organizers';
  const done = await fanOut(links, FAN_OUT, (l) => setCard(l.eventId, field, card), `Events with an old card of ${place.kind} ${place.id}`);
  return done.filter(Boolean).length;
}

/** An event's own write in flight makes a single update fail with this; it is worth retrying. */
const isTransient = (err: unknown) => (err as { name?: string }).name === 'TransactionConflictException';

/** Card rewrites of this process, to tell whether another still fits before the deadline. */
const cardWrites = new Durations(50);

async function setCard(eventId: number, field: 'venues' | 'organizers', card: Card): Promise<boolean> {
  const big = !fits(card);
  for (let attempt = 1; ; attempt++) {
    try {
      return await cardWrites.time('rewrite a card', () => writeCard(eventId, field, card, big));
    } catch (err) {
      if (!isTransient(err) || attempt >= 8) throw err;
      const wait = backoff(attempt, 10, 200);
      cardWrites.ensure('rewrite a card', wait);
      await sleep(wait);
    }
  }
}
