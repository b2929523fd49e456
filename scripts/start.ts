// `npm start`: the whole API on this machine. DynamoDB Local (data in .local/dynamodb, or in
// memory with --memory), the table from the table definition, the local API Gateway that
// runs the handlers in-process with real payload-2.0 events, and the table stream's consumer fed
// by a local poller, publishing the change feed to a local bus.
//   npm start [-- --memory] [-- --seed] [-- --log-json]
//   env: PORT (3000), HOST (127.0.0.1), DYNAMODB_ENDPOINT (use a running DynamoDB instead),
//   LOG_FORMAT (json or pretty), LOG_LEVEL, CHANGE_BUS_NAME (unset or `local`: the local bus)
import './sdk-quiet.js';
import { seedDemo } from '#lib/local/seed.js';
import { config, resetConfig } from '#lib/runtime/config.js';
import { ensureDevKeys, localAuthEnv } from '#lib/local/dev-auth.js';
import { ensureTable, JavaMissingError, startDynamoLocal, type DynamoLocal } from '#lib/local/dynamo.js';
import { startGateway, type Gateway } from '#lib/local/gateway.js';
import { installLocalBus } from '#lib/local/bus.js';
import { startStreamPoller, type StreamPoller } from '#lib/local/stream.js';
import { startLocalWebhookQueue, type LocalWebhookQueue } from '#lib/local/webhook-queue.js';
import { startSchedules, type LocalSchedules } from '#lib/local/schedules.js';
import { logFormat, terminalLogWriter } from '#lib/local/terminal-log.js';
import { createServer as createNetServer } from 'node:net';
import { clearServerInfo, writeServerInfo } from '#lib/local/server-info.js';
import { cli } from './cli.js';

// The SDK's "Node 20 will lose support" notice is not actionable for a local run.

const DATA_DIR = '.local/dynamodb';
/** The change feed's events, one JSON line each, when it goes to the local bus. */
const FEED_FILE = '.local/feed.jsonl';
/** Where the stream poller resumes after a restart. */
const STREAM_CHECKPOINTS = '.local/stream-checkpoints.json';

const c = cli(
  `Usage: npm start [-- --memory] [-- --seed] [-- --log-json]
  --memory     keep the data in memory (default: ${DATA_DIR})
  --seed       load the demo calendar (once; see npm run seed)
  --log-json   log the JSON lines the functions write on AWS (default when stdout is not a terminal)
Environment: PORT (3000), HOST (127.0.0.1), DYNAMODB_ENDPOINT (use a running DynamoDB),
  LOG_FORMAT (json or pretty), LOG_LEVEL (INFO), CHANGE_BUS_NAME (the change feed's
  EventBridge bus; unset or "local": a local bus that prints each change)`,
  { memory: { type: 'boolean' }, seed: { type: 'boolean' }, 'log-json': { type: 'boolean' } },
);
const values = c.values as { memory?: boolean; seed?: boolean; 'log-json'?: boolean };

const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got "${process.env.PORT}".`);
  process.exit(2);
}
// `npm start --memory` (without `--`) gives the option to npm, which keeps it as a setting.
for (const name of ['memory', 'seed', 'log-json'] as const) {
  if (process.env[`npm_config_${name.replace('-', '_')}`] === 'true' && !values[name]) {
    console.warn(`Warning: npm took --${name} for itself and it does nothing here; write npm start -- --${name}.`);
  }
}

// The address to print and to use in links: a wildcard bind is reached through loopback.
const publicHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

let dynamo: DynamoLocal | undefined;
let gateway: Gateway | undefined;
let poller: StreamPoller | undefined;
let webhooks: LocalWebhookQueue | undefined;
let schedules: LocalSchedules | undefined;
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (stopping) process.exit(code);
  stopping = true;
  try {
    clearServerInfo();
    await gateway?.close();
    await schedules?.stop();
    await poller?.stop();
    await webhooks?.stop();
    await dynamo?.stop();
    if (code === 0) console.log('Stopped.');
  } catch (err) {
    console.error(`Error while stopping: ${(err as Error).message}`);
    code ||= 1;
  }
  process.exit(code);
}

// Ctrl-C reaches this process more than once (from the terminal, and relayed by npm and tsx),
// so only a second signal well after the first forces the exit.
let firstSignalAt = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (firstSignalAt) {
      if (Date.now() - firstSignalAt < 1_000) return;
      console.error('Forced exit.');
      process.exit(1);
    }
    firstSignalAt = Date.now();
    console.log(`\n${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping…`);
    void shutdown(0);
  });
}

/** Fails at once when the address is taken (say, by another npm start), before DynamoDB Local starts. */
function checkPortFree(): Promise<void> {
  return new Promise((ok, fail) => {
    const probe = createNetServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      fail(err.code === 'EADDRINUSE' ? new Error(`${host}:${port} is already in use (is npm start already running?). Set PORT (and/or HOST) to another address.`) : err),
    );
    probe.listen(port, host, () => probe.close(() => ok()));
  });
}

try {
  if (port !== 0) await checkPortFree();
  const keys = await ensureDevKeys('.local');
  Object.assign(process.env, localAuthEnv(keys));
  process.env.TABLE_NAME ||= 'event-calendar';
  const siteUrlGiven = Boolean(process.env.SITE_URL);
  process.env.SITE_URL ||= `http://${publicHost}:${port}`;
  // Webhooks may be sent to this machine (http://127.0.0.1…), so that developers can receive them.
  process.env.WEBHOOK_LOCAL_TARGETS = '1';
  resetConfig();

  if (process.env.DYNAMODB_ENDPOINT) {
    console.log(`DynamoDB: ${process.env.DYNAMODB_ENDPOINT} (DYNAMODB_ENDPOINT)`);
  } else {
    const started = Date.now();
    dynamo = await startDynamoLocal({ dataDir: values.memory ? undefined : DATA_DIR });
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    void dynamo.exited.then((how) =>
      // Ctrl-C reaches DynamoDB Local too; only an exit nobody asked for is reported.
      setTimeout(() => {
        if (stopping) return;
        console.error(`DynamoDB Local exited (${how}); stopping.`);
        void shutdown(1);
      }, 300),
    );
    console.log(`DynamoDB Local: ${dynamo.endpoint} (${values.memory ? 'in memory' : `data in ${DATA_DIR}/`}, ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  const tableName = config().tableName;
  const created = await ensureTable(tableName);
  console.log(`Table: ${tableName}${created ? ' (created)' : ''}`);
  if (values.seed) {
    const result = await seedDemo();
    console.log(result.seeded ? `Seeded ${result.events} demo events.` : 'Demo data already loaded.');
  }

  // The webhook queue and its sender, as SQS and its event source mapping run them on AWS.
  webhooks = await startLocalWebhookQueue({ log: (line) => console.error(line) });
  // The stream consumer, as the event source mapping runs it on AWS.
  const bus = installLocalBus({ log: (line) => console.log(line), file: FEED_FILE });
  const format = values['log-json'] ? 'json' : logFormat();
  poller = await startStreamPoller({
    checkpointFile: STREAM_CHECKPOINTS,
    // The feed's lines say what the consumer did; its own lines show in JSON mode, errors always.
    logWriter: terminalLogWriter({ format, quiet: format === 'pretty', color: format === 'pretty' && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR }),
  });
  // The scheduled functions, as EventBridge rules run them on AWS.
  schedules = startSchedules();
  console.log(`Change feed: ${bus ? `local bus (a line per change below, and ${FEED_FILE})` : `EventBridge bus ${process.env.CHANGE_BUS_NAME} (CHANGE_BUS_NAME)`}`);

  try {
    gateway = await startGateway({ host, port, ...(values['log-json'] ? { logFormat: 'json' as const } : {}) });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new Error(`${host}:${port} is already in use. Set PORT (and/or HOST) to another address.`);
    throw err;
  }
  const origin = gateway.url.replace(/\/\/(0\.0\.0\.0|\[::\]):/, '//127.0.0.1:');
  if (!siteUrlGiven) {
    process.env.SITE_URL = origin;
    resetConfig();
  }
  console.log(`\nEvent Calendar API: ${origin}/en/${config().namespace}/events/v1/`);
  console.log('Bearer token:       npm run token -- --role editor   (or author, contributor; --sub NAME)');
  console.log(`API reference:      ${origin}/docs`);
  // npm run invoke finds the running server's data through this file.
  writeServerInfo({
    pid: process.pid,
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    table: tableName,
    url: origin,
    data: process.env.DYNAMODB_ENDPOINT === dynamo?.endpoint ? (values.memory ? 'in memory' : DATA_DIR) : 'DYNAMODB_ENDPOINT',
  });
  console.log('Press Ctrl-C to stop.\n');
} catch (err) {
  if (err instanceof JavaMissingError) {
    console.error(err.message);
  } else {
    console.error(`Could not start: ${(err as Error).message ?? err}`);
  }
  if (!stopping) await shutdown(1);
}
