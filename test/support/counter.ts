// The table's change counter moved as another function moves it (lib/store/validators.ts): straight
// in the table, so that this process's own record of the counter does not learn of it.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { keys } from '#lib/store/keys.js';

/** Adds one to a shard of the counter, stamped `at` (the other function's clock). */
export async function moveCounterElsewhere(shard: number, at: number): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: keys.validator(shard),
      UpdateExpression: 'ADD #n :one SET #at = :at',
      ExpressionAttributeNames: { '#n': 'n', '#at': 'at' },
      ExpressionAttributeValues: { ':one': 1, ':at': at },
    }),
  );
}
