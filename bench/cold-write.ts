// A floor of `npm run bench:cold`: what the SDK alone costs the smallest write this API makes, a
// guard read and then one transaction: GetItem, then TransactWriteItems of two puts.
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { client, TableName } from './cold-client.js';

export const handler = async () => {
  const guard = await client.send(new GetCommand({ TableName, Key: { pk: 'COLD', sk: 'START' } }));
  const id = randomUUID();
  await client.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName, Item: { pk: 'COLD', sk: `RECORD#${id}`, title: 'Cold' }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName, Item: { pk: 'COLD', sk: `LINK#${id}` } } },
      ],
    }),
  );
  return { statusCode: 201, body: JSON.stringify({ id, guard: guard.Item ?? null }) };
};
