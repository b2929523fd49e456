// `npm run dev`: npm start that restarts on a code change. DynamoDB Local starts once, here, and
// keeps running (with its data, even --memory) while tsx's watcher restarts the server process
// on every change to a file it imports.
import './sdk-quiet.js';
import { spawn } from 'node:child_process';
import { ensureTable, JavaMissingError, startDynamoLocal, type DynamoLocal } from '#lib/local/dynamo.js';
import { cli } from './cli.js';

const DATA_DIR = '.local/dynamodb';

const c = cli(
  `Usage: npm run dev [-- --memory] [-- --seed] [-- --log-json]
Like npm start, and restarts the server when a file it imports changes; DynamoDB Local keeps running.
  --memory     keep the data in memory (kept across restarts; default: ${DATA_DIR})
  --seed       load the demo calendar (once)
  --log-json   log the JSON lines the functions write on AWS (default when stdout is not a terminal)
Environment: PORT (3000), HOST (127.0.0.1), DYNAMODB_ENDPOINT (use a running DynamoDB),
  LOG_FORMAT (json or pretty), LOG_LEVEL (INFO)`,
  { memory: { type: 'boolean' }, seed: { type: 'boolean' }, 'log-json': { type: 'boolean' } },
);

let dynamo: DynamoLocal | undefined;
try {
  if (!process.env.DYNAMODB_ENDPOINT) {
    dynamo = await startDynamoLocal({ dataDir: c.values.memory ? undefined : DATA_DIR });
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    console.log(`DynamoDB Local: ${dynamo.endpoint} (${c.values.memory ? 'in memory' : `data in ${DATA_DIR}/`}), kept across restarts`);
    process.env.TABLE_NAME ||= 'event-calendar';
    await ensureTable(process.env.TABLE_NAME);
  }
} catch (err) {
  console.error(err instanceof JavaMissingError ? err.message : `Could not start DynamoDB Local: ${(err as Error).message}`);
  await dynamo?.stop();
  process.exit(1);
}

const server = spawn(
  process.execPath,
  [
    ...process.execArgv,
    'node_modules/tsx/dist/cli.mjs',
    'watch',
    '--clear-screen=false',
    'scripts/start.ts',
    ...(c.values.seed ? ['--seed'] : []),
    ...(c.values['log-json'] ? ['--log-json'] : []),
  ],
  { stdio: 'inherit', env: process.env },
);

let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    server.kill('SIGINT');
    await new Promise((ok) => (server.exitCode !== null ? ok(null) : server.once('exit', ok)));
    await dynamo?.stop();
  }
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0));
server.once('exit', (code) => void stop(code ?? 0));
