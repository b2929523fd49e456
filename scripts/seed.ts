// `npm run seed -- [--events N]`: loads the demo calendar into the local data (.local/dynamodb), or
// into DYNAMODB_ENDPOINT. Run it while `npm start` is stopped, or use `npm start -- --seed`.
import { parseArgs } from 'node:util';
import { resetConfig } from '../lib/config.js';
import { ensureDevKeys, localAuthEnv } from '../lib/local/dev-auth.js';
import { ensureTable, JavaMissingError, startDynamoLocal, type DynamoLocal } from '../lib/local/dynamo.js';
import { seedDemo } from '../lib/local/seed.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { values } = parseArgs({ options: { events: { type: 'string', default: '300' } } });
const events = Number(values.events);
if (!Number.isInteger(events) || events < 1) {
  console.error('--events must be a positive integer');
  process.exit(2);
}
let dynamo: DynamoLocal | undefined;
try {
  Object.assign(process.env, localAuthEnv(await ensureDevKeys()));
  process.env.TABLE_NAME ||= 'event-calendar';
  process.env.SITE_URL ||= `http://127.0.0.1:${process.env.PORT || 3000}`;
  if (!process.env.DYNAMODB_ENDPOINT) {
    dynamo = await startDynamoLocal({ dataDir: '.local/dynamodb' });
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  }
  resetConfig();
  await ensureTable(process.env.TABLE_NAME);
  const result = await seedDemo(events);
  console.log(result.seeded ? `Seeded ${result.events} events.` : `Already seeded (${result.events} events); nothing to do.`);
} catch (err) {
  console.error(err instanceof JavaMissingError ? err.message : `Seeding failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await dynamo?.stop();
}
