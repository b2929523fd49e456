// The client of the cold-start yardsticks of `npm run bench:cold` (bench/cold-*.ts): the DynamoDB
// document client as the SDK ships it, made at module scope.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const endpoint = process.env.DYNAMODB_ENDPOINT || undefined;
export const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint, ...(endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}) }));
export const TableName = process.env.TABLE_NAME;
