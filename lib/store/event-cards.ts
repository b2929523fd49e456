// The write of one card into an event (lib/logic/cards.ts says when cards are written and why).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import { keys } from './keys.js';
import type { Card } from './items.js';

/**
 * Puts `card` into event `eventId`'s cards (or, when it is too `big` to copy, removes the event's
 * card of that record) if the event still links the record by `field` and holds no newer card.
 * Bumping `indexVersion` makes an event write that read the old card retry
 * (lib/logic/event-writes.ts). False when a condition failed; events written before cards
 * existed have no map and keep reading the record instead.
 */
export async function writeCard(eventId: number, field: 'venues' | 'organizers', card: Card, big: boolean): Promise<boolean> {
  const input = {
    TableName: config().tableName,
    Key: keys.post(eventId),
    UpdateExpression: big ? 'REMOVE #cards.#id SET #v = #v + :one, #iv = #v + :one' : 'SET #cards.#id = :card, #v = #v + :one, #iv = #v + :one',
    ConditionExpression: big
      ? 'attribute_exists(#cards.#id) AND contains(#field, :id)'
      : 'attribute_exists(#cards) AND contains(#field, :id) AND (attribute_not_exists(#cards.#id) OR attribute_not_exists(#cards.#id.#rev) OR #cards.#id.#rev < :rev)',
    ExpressionAttributeNames: { '#cards': 'cards', '#id': String(card.id), '#v': 'version', '#iv': 'indexVersion', '#field': field, ...(big ? {} : { '#rev': 'rev' }) },
    ExpressionAttributeValues: big ? { ':one': 1, ':id': card.id } : { ':card': card, ':one': 1, ':id': card.id, ':rev': card.rev ?? 0 },
  };
  try {
    await db().send(new UpdateCommand(input));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}
