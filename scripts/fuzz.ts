// `npm run fuzz`: the API fuzzes itself. Starts DynamoDB Local in memory and the local gateway in
// this process on a fresh table, then sends property-based requests generated from the operation
// table (fuzz/), judging every answer against /doc and the API's rules. Prints its seed
// first and a summary last; exits 1 on any failure. A fresh process per run: a request that
// pollutes a prototype would spoil anything that ran after it in the same process.
//   npm run fuzz [-- --runs N] [--seed S] [--concurrency C] [--no-minimize]
import './sdk-quiet.js';
import { parseArgs } from 'node:util';
import { resetConfig } from '#lib/runtime/config.js';
import { ensureDevKeys, localAuthEnv } from '#lib/local/dev-auth.js';
import { ensureTable, JavaMissingError, startDynamoLocal, type DynamoLocal } from '#lib/local/dynamo.js';
import { startGateway, type Gateway } from '#lib/local/gateway.js';
import { failed, formatSummary } from '../fuzz/report.js';
import { runFuzz } from '../fuzz/runner.js';

const USAGE = `Usage: npm run fuzz [-- --runs N] [--seed S] [--concurrency C] [--no-minimize]
  --runs N          requests to send (default 20000)
  --seed S          fast-check seed (default: random; printed at the start, pass it to replay)
  --concurrency C   requests in flight at once (default 8; requests with prototype keys go alone)
  --no-minimize     do not shrink the failures to the parts of the request they need
Starts DynamoDB Local in memory (Java 17+) unless DYNAMODB_ENDPOINT is set, and the gateway in this
process on a fresh table. Exits 1 when any response breaks a rule.`;

let values: { runs?: string; seed?: string; concurrency?: string; 'no-minimize'?: boolean; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      runs: { type: 'string' },
      seed: { type: 'string' },
      concurrency: { type: 'string' },
      'no-minimize': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const int = (name: string, raw: string | undefined, fallback: number, min: number): number => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) {
    console.error(`--${name} must be an integer >= ${min}, got "${raw}".\n${USAGE}`);
    process.exit(2);
  }
  return n;
};
const runs = int('runs', values.runs, 20_000, 1);
const seed = int('seed', values.seed, Math.floor(Math.random() * 2 ** 31), -(2 ** 31));
const concurrency = int('concurrency', values.concurrency, 8, 1);

console.log(`Fuzz seed: ${seed}  (replay: npm run fuzz -- --seed ${seed} --runs ${runs})`);

let dynamo: DynamoLocal | undefined;
let gateway: Gateway | undefined;
let code = 0;
try {
  const keys = await ensureDevKeys('.local');
  Object.assign(process.env, localAuthEnv(keys));
  if (!process.env.DYNAMODB_ENDPOINT) {
    dynamo = await startDynamoLocal();
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  }
  process.env.TABLE_NAME = `fuzz-${Date.now().toString(36)}`;
  resetConfig();
  await ensureTable(process.env.TABLE_NAME);
  gateway = await startGateway({ host: '127.0.0.1', port: 0, quiet: true });
  process.env.SITE_URL = gateway.url;
  resetConfig();

  const summary = await runFuzz({
    origin: gateway.url,
    keys,
    runs,
    seed,
    concurrency,
    minimize: !values['no-minimize'],
    log: (line) => console.log(line),
  });
  console.log(`\n${formatSummary(summary)}`);
  console.log(`\nSeed: ${seed}`);
  code = failed(summary) ? 1 : 0;
} catch (err) {
  console.error(err instanceof JavaMissingError ? err.message : `Fuzz run failed: ${(err as Error).stack ?? err}`);
  code = 2;
} finally {
  await gateway?.close();
  await dynamo?.stop();
}
process.exit(code);
