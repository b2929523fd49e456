// `npm run invoke -- <operation-id> <fixture.json>`: runs one handler in-process with a
// payload-2.0 event from a fixture file, as Lambda would, and prints the result. Functions that
// are not API operations (lib/stream/functions.ts, e.g. `stream.consumer` with a stream batch)
// run the same way and print what they return, as JSON.
// - DynamoDB: DYNAMODB_ENDPOINT when set, else a fresh in-memory DynamoDB Local (stopped after).
// - `{{token:editor}}`, `{{token:author}}`, `{{token:contributor}}` in header values become fresh
//   bearer tokens from the development issuer.
// - The change feed goes to the local bus (one line per change on stderr) unless CHANGE_BUS_NAME
//   names an EventBridge bus; with a running npm start it is appended to its feed file too.
// Exit codes: 0 when the handler returned (whatever its status), 1 when it threw or could not
// run, 2 for an unknown operation or an unreadable fixture.
import './sdk-quiet.js';
import { readFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ROLES, type Role } from '#lib/contract/principal.js';
import { config, resetConfig } from '#lib/runtime/config.js';
import { ensureDevKeys, localAuthEnv, mintToken, type DevKeys } from '#lib/local/dev-auth.js';
import { ensureTable, JavaMissingError, startDynamoLocal, type DynamoLocal } from '#lib/local/dynamo.js';
import { loadHandler, runLambda } from '#lib/local/gateway.js';
import { installLocalBus } from '#lib/local/bus.js';
import { installWebhookQueue } from '#lib/stream/webhook-queue.js';
import { runFunction } from '#lib/local/stream.js';
import { logFormat, terminalLogWriter } from '#lib/local/terminal-log.js';
import { withLogWriter } from '#lib/observe/logger.js';
import { OPERATIONS, routePath, type Operation } from '#lib/contract/operations.js';
import { readServerInfo } from '#lib/local/server-info.js';
import { BACKGROUND_FUNCTIONS, type BackgroundFunction } from '#lib/stream/functions.js';
import { cli } from './cli.js';

const USAGE = `Usage: npm run invoke -- <operation-id> <fixture.json>
Runs one operation's handler in-process with a payload-2.0 event (events-fixtures/ has one per
operation; npm run fixture writes more) and prints the status, headers and body. Functions that
are not operations (${BACKGROUND_FUNCTIONS.map((f) => f.id).join(', ')}) take their own event
(events-fixtures/stream.consumer.json) and print what they return.`;

/** The change feed file of npm start (scripts/start.ts). */
const FEED_FILE = '.local/feed.jsonl';

function fail(code: number, message: string): never {
  console.error(message);
  process.exit(code);
}

const c = cli(USAGE, {}, { positionals: true });
const positionals = c.positionals;
const [opId, fixturePath] = positionals;
if (!opId || !fixturePath || positionals.length > 2) c.fail('An operation id and a fixture file are needed.');

const op: Operation | undefined = OPERATIONS.find((o) => o.id === opId);
const background: BackgroundFunction | undefined = op ? undefined : BACKGROUND_FUNCTIONS.find((f) => f.id === opId);
if (!op && !background) {
  fail(2, `Unknown operation "${opId}". Operations: ${OPERATIONS.map((o) => o.id).join(', ')}; other functions: ${BACKGROUND_FUNCTIONS.map((f) => f.id).join(', ')}`);
}
const fn = (op ?? background)!;

let parsed: Record<string, unknown>;
try {
  const value: unknown = JSON.parse(await readFile(fixturePath, 'utf8'));
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('it does not hold a JSON object');
  parsed = value as Record<string, unknown>;
} catch (err) {
  fail(2, `Cannot read fixture ${fixturePath}: ${(err as Error).message}`);
}

const TOKEN_RE = /\{\{token:([a-z]+)\}\}/g;

/** Replaces `{{token:<role>}}` in header values with freshly minted tokens (one per role). */
async function fillTokens(e: APIGatewayProxyEventV2, keys: DevKeys): Promise<void> {
  const tokens = new Map<string, string>();
  for (const [name, value] of Object.entries(e.headers ?? {})) {
    if (typeof value !== 'string' || !value.includes('{{token:')) continue;
    for (const [, role] of value.matchAll(TOKEN_RE)) {
      if (!(ROLES as readonly string[]).includes(role!)) fail(2, `Fixture header ${name}: unknown role in {{token:${role}}} (use ${ROLES.join(', ')}).`);
      if (!tokens.has(role!)) tokens.set(role!, await mintToken(keys, { role: role as Role }));
    }
    e.headers[name] = value.replace(TOKEN_RE, (_, role: string) => tokens.get(role)!);
  }
}

let dynamo: DynamoLocal | undefined;
let exitCode = 0;
try {
  const keys = await ensureDevKeys('.local');
  Object.assign(process.env, localAuthEnv(keys));
  // The running npm start's data, when there is one: the fixtures name its records.
  const server = process.env.DYNAMODB_ENDPOINT ? undefined : readServerInfo();
  if (server) {
    process.env.DYNAMODB_ENDPOINT = server.endpoint;
    process.env.TABLE_NAME = server.table;
    process.env.SITE_URL ||= server.url;
  }
  process.env.TABLE_NAME ||= 'event-calendar';
  process.env.SITE_URL ||= 'http://127.0.0.1:3000';
  resetConfig();
  if (op) {
    const event = parsed as unknown as APIGatewayProxyEventV2;
    await fillTokens(event, keys);
    const expected = routePath(op, config().namespace);
    if (event.routeKey && event.routeKey !== '$default' && !event.routeKey.endsWith(` ${expected}`)) {
      console.error(`Note: the fixture's routeKey "${event.routeKey}" is not a route of ${op.id} (${op.methods.join('|')} ${expected}).`);
    }
  }
  // As npm start: the change feed on the local bus, shown on stderr (and in the server's feed file).
  installLocalBus({ log: (line) => console.error(line), ...(server ? { file: FEED_FILE } : {}) });
  // Webhook messages a consumer batch queues, and a sender's retries, are shown rather than sent.
  installWebhookQueue({
    send: async (messages) => {
      for (const m of messages) console.error(`webhook message queued (group ${m.groupId}): ${m.body}`);
    },
    retryAfter: async (_, seconds) => console.error(`webhook message to be retried in ${seconds} s`),
  });

  if (server) {
    console.error(`# Data: the running server's (${server.url}, DynamoDB ${server.endpoint}, table ${server.table}, ${server.data}).`);
  } else if (process.env.DYNAMODB_ENDPOINT) {
    console.error(`# Data: DynamoDB at ${process.env.DYNAMODB_ENDPOINT} (DYNAMODB_ENDPOINT), table ${config().tableName}.`);
  } else {
    dynamo = await startDynamoLocal();
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    console.error('# Data: a fresh, empty in-memory DynamoDB (no npm start is running), so records the fixture names do not exist.');
  }
  await ensureTable(config().tableName);

  const handler = await loadHandler(fn.handler);
  // The function's log lines go to stderr, so that stdout is the response alone.
  const stderrFormat = logFormat(process.env, Boolean(process.stderr.isTTY));
  const toStderr = (line: string) => console.error(line);
  const writer = terminalLogWriter({ format: stderrFormat, color: stderrFormat === 'pretty' && !process.env.NO_COLOR, out: toStderr, err: toStderr });
  if (background) {
    const out = await withLogWriter(writer, () => runFunction(background, handler as (e: unknown, c: unknown) => unknown, parsed));
    console.log(JSON.stringify(out ?? null, null, 2));
  } else {
    const result = await withLogWriter(writer, () => runLambda(handler, parsed as unknown as APIGatewayProxyEventV2, op));

    const status = result.statusCode ?? 200;
    console.log(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd());
    for (const [name, value] of Object.entries(result.headers ?? {})) console.log(`${name}: ${value}`);
    for (const cookie of result.cookies ?? []) console.log(`set-cookie: ${cookie}`);
    console.log('');
    const raw = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body;
    let pretty = raw;
    try {
      if (raw !== '') pretty = JSON.stringify(JSON.parse(raw), null, 2);
    } catch {
      // not JSON: printed as is
    }
    if (pretty !== '') console.log(pretty);
  }
} catch (err) {
  exitCode = 1;
  const e = err as NodeJS.ErrnoException;
  if (err instanceof JavaMissingError) console.error(e.message);
  else if (e?.code === 'ERR_MODULE_NOT_FOUND' && e.message.includes(fn.handler)) console.error(`The handler module ${fn.handler} does not exist (yet).`);
  else console.error(`${fn.id} failed: ${e?.stack ?? e}`);
} finally {
  await dynamo?.stop();
}
process.exit(exitCode);
