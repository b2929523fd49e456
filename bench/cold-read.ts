// A floor of `npm run bench:cold`: what the SDK alone costs a read that needs a second request,
// as a read by id needs one for its categories and tags: GetItem, then BatchGetItem.
import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { client, TableName } from './cold-client.js';

export const handler = async () => {
  const record = await client.send(new GetCommand({ TableName, Key: { pk: 'COLD', sk: 'START' } }));
  const terms = await client.send(
    new BatchGetCommand({
      RequestItems: {
        [TableName!]: {
          Keys: [
            { pk: 'COLD', sk: 'A' },
            { pk: 'COLD', sk: 'B' },
          ],
        },
      },
    }),
  );
  return { statusCode: 200, body: JSON.stringify([record.Item ?? null, terms.Responses?.[TableName!] ?? []]) };
};
