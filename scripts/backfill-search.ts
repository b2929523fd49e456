// `npm run backfill:search -- [--aws --table NAME] [--segments N]`: indexes for search every event
// written before the stream consumer kept the search index (lib/stream/backfill.ts).
import './sdk-quiet.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { JavaMissingError, localClient, startDynamoLocal, type DynamoLocal } from '#lib/local/dynamo.js';
import { backfillSearch } from '#lib/stream/backfill.js';
import { cli, wholeNumber } from './cli.js';

const c = cli(
  `Usage: npm run backfill:search -- [--aws --table NAME] [--segments N]
Indexes for search every event written before the stream consumer kept the search index (a
deployment or local data older than it). Safe to stop and run again, also while the API runs.
  --aws        the deployed table, with this machine's AWS credentials and AWS_REGION
               (default: the local data in .local/dynamodb, or DYNAMODB_ENDPOINT)
  --table      the table (default: TABLE_NAME, or event-calendar); with --aws, the stack output TableName
  --segments   parallel scan segments (default 4)`,
  { aws: { type: 'boolean' }, table: { type: 'string' }, segments: { type: 'string' } },
);
const segments = wholeNumber(c, 'segments', c.values.segments as string | undefined, 4);
const table = (c.values.table as string | undefined) ?? process.env.TABLE_NAME ?? 'event-calendar';
if (c.values.aws && c.values.table === undefined) c.fail('--aws needs --table: the stack output TableName.');

let dynamo: DynamoLocal | undefined;
let base: DynamoDBClient | undefined;
try {
  if (c.values.aws) {
    base = new DynamoDBClient({});
  } else {
    if (!process.env.DYNAMODB_ENDPOINT) dynamo = await startDynamoLocal({ dataDir: '.local/dynamodb' });
    base = localClient(dynamo?.endpoint ?? process.env.DYNAMODB_ENDPOINT);
  }
  const client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  let last = 0;
  const done = await backfillSearch({
    target: { table, client },
    segments,
    progress: ({ events }) => {
      if (events - last >= 500) console.error(`${(last = events)} events indexed…`);
    },
  });
  console.log(`Indexed ${done.events} events of ${table} for search (${done.scanned} items scanned).`);
} catch (err) {
  console.error(err instanceof JavaMissingError ? err.message : `Backfill failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  base?.destroy();
  await dynamo?.stop();
}
