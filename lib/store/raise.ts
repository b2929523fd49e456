// Raising a stored number to at least a value, in one conditional update: concurrent writers
// never lower it, and none needs to read it first.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from './db.js';
import type { Key } from './reads.js';

/**
 * Sets `attribute` of the item at `key` to `value` unless it holds at least that already. Returns
 * the value stored afterwards: `value`, or the larger one found.
 */
export async function raiseTo(key: Key, attribute: string, value: number): Promise<number> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: key,
        UpdateExpression: 'SET #a = :v',
        ConditionExpression: 'attribute_not_exists(#a) OR #a < :v',
        ExpressionAttributeNames: { '#a': attribute },
        ExpressionAttributeValues: { ':v': value },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return value;
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
    // The condition failing says the stored value is at least `value`; the item says how much.
    const stored = Number((err.Item as Record<string, { N?: string }> | undefined)?.[attribute]?.N);
    return Number.isFinite(stored) ? Math.max(value, stored) : value;
  }
}
