// How far the writing of a series' occurrences got, on its first event: one conditional
// UpdateItem, which neither bumps the record's version nor touches what its indexes derive from.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import { keys } from './keys.js';

/**
 * Records that the occurrences before `to` exist, if the first event still says `from` (a
 * redelivered change that got there first, or a deleted event, leave it as it is). Whether it did.
 */
export async function advanceSeries(id: number, from: number, to: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: keys.post(id),
        UpdateExpression: 'SET #series.#made = :to',
        ConditionExpression: '#series.#made = :from',
        ExpressionAttributeNames: { '#series': 'series', '#made': 'made' },
        ExpressionAttributeValues: { ':from': from, ':to': to },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}
