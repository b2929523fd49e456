// The cold-start yardstick of `npm run bench:cold`: a function that only creates the DynamoDB
// document client, as the SDK ships it, and reads one item.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const endpoint = process.env.DYNAMODB_ENDPOINT || undefined;
const client = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint, ...(endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}) }),
);

export const handler = async () => {
  const out = await client.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'COLD', sk: 'START' } }));
  return { statusCode: 200, body: JSON.stringify(out.Item ?? null) };
};
