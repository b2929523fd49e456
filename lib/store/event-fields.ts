// The write of an event's record-only fields (title, texts, cost, flags: nothing an index item,
// count, guard, link or card derives from) as one conditional UpdateItem, so that many writers of
// one event all succeed, the last one winning per field (lib/logic/events.ts, `updateFields`).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, OutcomeUnknown } from '#lib/contract/errors.js';
import { config } from '#lib/runtime/config.js';
import { remainingMs } from '#lib/runtime/deadline.js';
import { db } from './db.js';
import { keys } from './keys.js';
import type { EventItem } from './items.js';
import { requireVersion, settleChecked, type Checked } from './precondition.js';
import { withRetry } from './retry.js';
import { abortAfter, logWrite, outcomeOpen } from './transactions.js';

/** What the update writes: attributes to set and to remove, and the modification times. */
export interface RecordOnlyWrite {
  set: Partial<EventItem>;
  remove: (keyof EventItem)[];
  modified: { modified: string; modified_utc: string };
}

/**
 * Writes `fields` to event `id` while it is an event of `status` (and, with `check`, of the checked
 * version); bumps `version` but keeps `indexVersion` (or gives a record last written whole the
 * version that wrote it: lib/logic/event-writes.ts). The record as written, or undefined when a
 * condition failed (the event is gone or its status changed).
 */
export async function updateEventFields(id: number, status: string, fields: RecordOnlyWrite, check: Checked | undefined): Promise<EventItem | undefined> {
  const names: Record<string, string> = {
    '#kind': 'kind',
    '#status': 'status',
    '#version': 'version',
    '#iv': 'indexVersion',
    '#modified': 'modified',
    '#modified_utc': 'modified_utc',
  };
  const values: Record<string, unknown> = { ':event': 'event', ':status': status, ':one': 1, ':modified': fields.modified.modified, ':modified_utc': fields.modified.modified_utc };
  const sets = ['#modified = :modified', '#modified_utc = :modified_utc', '#iv = if_not_exists(#iv, #version)', '#version = #version + :one'];
  for (const [attribute, value] of Object.entries(fields.set)) {
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    sets.push(`#${attribute} = :${attribute}`);
  }
  for (const attribute of fields.remove) names[`#${attribute}`] = attribute;
  const removes = fields.remove.map((a) => `#${a}`);
  const update = requireVersion(
    {
      TableName: config().tableName,
      Key: keys.post(id),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(pk) AND #kind = :event AND #status = :status',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW' as const,
    },
    check,
  );
  return withRetry(async () => {
    try {
      // Given up at the deadline: an UpdateItem has no token to send it again with, so an update
      // whose answer did not come is an unknown outcome.
      const send = () => logWrite(() => db().send(new UpdateCommand(update), { abortSignal: abortAfter(remainingMs()) }));
      const out = await settleChecked(check, send);
      return out.Attributes as EventItem;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return undefined;
      if (outcomeOpen(err)) throw new OutcomeUnknown('The update was sent and its outcome did not come back in time', { cause: err });
      // A transaction holding the event (DynamoDB refuses the update rather than queue it).
      if ((err as { name?: string }).name === 'TransactionConflictException') throw new ConflictError('Transaction conflict on the event');
      throw err;
    }
  });
}
