// Id sequences: atomic counters, as WordPress's auto-increment ids.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import { keys, type Sequence } from './keys.js';

/** The next integer of a sequence (atomic counter; gaps are possible, as in WordPress). */
export async function nextId(sequence: Sequence, n = 1): Promise<number> {
  const out = await db().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: keys.counter(sequence),
      UpdateExpression: 'ADD #v :n',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':n': n },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes!.value) - n + 1;
}
