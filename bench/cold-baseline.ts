// The cold-start yardstick of `npm run bench:cold`: a function that only creates the DynamoDB
// document client, as the SDK ships it, and reads one item.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { client, TableName } from './cold-client.js';

export const handler = async () => {
  const out = await client.send(new GetCommand({ TableName, Key: { pk: 'COLD', sk: 'START' } }));
  return { statusCode: 200, body: JSON.stringify(out.Item ?? null) };
};
