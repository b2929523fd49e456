// Cards: the copies of venues and organizers that events carry, so that a page of events is
// presented from its event records alone. Reading each linked record instead costs at least half
// a capacity unit per venue or organizer, and a page shares fewer of them as the calendar grows.
//
// Cards stay current because:
// - a write that takes a card from a record it read checks the record's `rev` in its transaction
//   (lib/logic/event-writes.ts), so a card is never older than the record at commit time;
// - a venue's or organizer's edit then rewrites the cards of every linked event (its link
//   items, read consistently), and only with a newer `rev`, bumping the event's version so that
//   a concurrent event write retries instead of putting an old card back;
// - trashing or deleting a venue or organizer unlinks it from its events, cards included.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';
import { db } from '../db.js';
import { ConditionalCheckFailedException, queryAll } from '../store/base.js';
import { keys } from '../store/keys.js';
import type { Card, CardOmitted, EventItem, OrganizerItem, VenueItem } from '../store/items.js';

type Place = VenueItem | OrganizerItem;

const OMITTED: readonly CardOmitted[] = ['pk', 'sk', 'gsi1pk', 'gsi2pk', 'gsi2sk', 'version', 'linkedEvents', 'trashedFrom'];

export function cardOf(place: Place): Card {
  const card: Record<string, unknown> = { ...place };
  for (const k of OMITTED) delete card[k];
  return card as unknown as Card;
}

const newer = (a: Card | undefined, b: Card | undefined) => !b || (a?.rev ?? 0) > (b.rev ?? 0);

/**
 * The cards of an event's venues and organizers: from records read for this write when they are
 * newer than the event's current cards, else the current ones.
 */
export function cardsFor(e: Pick<EventItem, 'venues' | 'organizers'>, read: Map<number, Place>, current: EventItem['cards'] = {}): Record<string, Card> {
  const cards: Record<string, Card> = {};
  for (const id of [...e.venues, ...e.organizers]) {
    const fresh = read.get(id);
    const card = fresh && newer(cardOf(fresh), current[id]) ? cardOf(fresh) : current[id];
    if (card) cards[id] = card;
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

/** After a venue's or organizer's edit: the new card in every linked event. */
export async function refreshCards(place: Place): Promise<number> {
  const links = await queryAll<{ eventId: number }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.post(place.id).pk, ':p': keys.linkPrefix },
    ProjectionExpression: 'eventId',
    ConsistentRead: true,
  });
  const card = cardOf(place);
  const field = place.kind === 'venue' ? 'venues' : 'organizers';
  let written = 0;
  for (let i = 0; i < links.length; i += FAN_OUT) {
    const done = await Promise.all(links.slice(i, i + FAN_OUT).map((l) => setCard(l.eventId, field, card)));
    written += done.filter(Boolean).length;
  }
  return written;
}

async function setCard(eventId: number, field: 'venues' | 'organizers', card: Card): Promise<boolean> {
  try {
    await db().send(new UpdateCommand({
      TableName: config().tableName,
      Key: keys.post(eventId),
      UpdateExpression: 'SET #cards.#id = :card, #v = #v + :one',
      // Events written before cards existed have no map: they keep reading the record instead.
      ConditionExpression:
        'attribute_exists(#cards) AND contains(#field, :id) AND (attribute_not_exists(#cards.#id) OR attribute_not_exists(#cards.#id.#rev) OR #cards.#id.#rev < :rev)',
      ExpressionAttributeNames: { '#cards': 'cards', '#id': String(card.id), '#v': 'version', '#field': field, '#rev': 'rev' },
      ExpressionAttributeValues: { ':card': card, ':one': 1, ':id': card.id, ':rev': card.rev ?? 0 },
    }));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}
