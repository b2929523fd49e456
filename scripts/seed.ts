// `npm run seed -- [--events N]`: loads the demo calendar into the local data (.local/dynamodb), or
// into DYNAMODB_ENDPOINT. Run it while `npm start` is stopped, or use `npm start -- --seed`.
import './sdk-quiet.js';
import { resetConfig } from '#lib/runtime/config.js';
import { ensureDevKeys, localAuthEnv } from '#lib/local/dev-auth.js';
import { ensureTable, JavaMissingError, startDynamoLocal, type DynamoLocal } from '#lib/local/dynamo.js';
import { seedDemo } from '#lib/local/seed.js';
import { cli, wholeNumber } from './cli.js';

const c = cli(
  `Usage: npm run seed -- [--events N]
Loads the demo calendar (venues, organizers, categories, tags and N events in en, lt and ru) into
.local/dynamodb, or into DYNAMODB_ENDPOINT, once. Run it while npm start is stopped.
  --events   how many events (default 300)`,
  { events: { type: 'string' } },
);
const events = wholeNumber(c, 'events', c.values.events as string | undefined, 300);
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
