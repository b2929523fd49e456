// `npm run bench:cold`: how long each synthesized function bundle takes to load and to answer its
// first request, in fresh Node processes, as a ratio to a bundle that only creates the DynamoDB
// document client (bench/cold-baseline.ts, bundled with the stack's esbuild options but without
// the project's module aliases, i.e. the SDK as it ships).
// - The bundles: `cdk synth` into a temporary directory (or BENCH_CDK_OUT, an existing one).
// - Each round runs events-fixtures/manifest.json in order against a new table, every fixture in a
//   fresh process with its operation's bundle, each one followed or preceded (alternating) by the
//   baseline in a fresh process of its own; then the stream consumer with its fixture.
// - Per function: the medians over BENCH_ROUNDS rounds (default 5) of the import time and of the
//   first call's time (its DynamoDB requests included), against the median of every baseline run;
//   and of the first call's CPU time, which leaves out the time spent waiting for DynamoDB Local
//   (slower than DynamoDB for transactions, and writes make several).
// - Two floors, run the same way against the baseline each round: what the SDK alone costs the
//   request patterns the functions need (bench/cold-read.ts, bench/cold-write.ts).
// - Each process runs with the stack's settings (log level INFO, metrics on) and Lambda's runtime
//   API variable; the first call's DynamoDB requests are read from its request log line.
// - The bundles run on this process's Node, or on BENCH_NODE (a path to another `node`).
// Targets: reads within 1.15× and writes within 1.3× of the baseline, both times.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions, REPO_ROOT } from '../infra/bundling.js';
import { OPERATION_TAG } from '../infra/api-function.js';
import { ensureTable } from '#lib/local/dynamo.js';
import { mintToken } from '#lib/local/dev-auth.js';
import { operation } from '#lib/contract/operations.js';
import { benchCli } from './cli.js';
import { benchTable, runBench } from './main.js';
import { renderCold, runContext, writeTable, type ColdResults } from './readme.js';

const settings = benchCli(
  'bench:cold',
  `Cold starts, per function (about five minutes): synthesizes the stack and loads every function's
bundle in fresh Node processes, measuring its import and its first call against a bundle that only
creates the DynamoDB client. Writes bench/results/cold.json and its table in bench/README.md.`,
  {
    BENCH_ROUNDS: { meaning: 'rounds; each figure is the median over them', default: 5 },
    BENCH_NODE: { meaning: 'another node binary to run the bundles (the major version Lambda runs, say)' },
    BENCH_CDK_OUT: { meaning: 'an existing cdk synth output to use instead of synthesizing the stack' },
  },
);

const ROUNDS = settings.count('BENCH_ROUNDS');
/** The Node that runs the bundles: this one, or BENCH_NODE (the major version Lambda runs, say). */
const NODE = process.env.BENCH_NODE || process.execPath;
const RESULTS = resolve(REPO_ROOT, 'bench/results/cold.json');
export const TARGETS = { read: 1.15, write: 1.3 } as const;
/** The floors' bundles, with the requests their first call makes. */
const FLOORS = [
  { name: 'read', entry: 'bench/cold-read.ts', requests: 'GetItem, then BatchGetItem' },
  { name: 'write', entry: 'bench/cold-write.ts', requests: 'GetItem, then TransactWriteItems' },
] as const;
/** Runs of each floor per round, each beside a run of the baseline. */
const FLOOR_RUNS = 3;

/** What runs in each fresh process: the import, then the first call, timed from inside. */
const CHILD = `
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
// DynamoDB Local is reached over http, whose module the SDK imports on its first request; DynamoDB
// is reached over https, which the bundles import as they load. Node 22's http module loads its
// WebSocket client (undici) with it, tens of milliseconds that no call on AWS pays: every bundle
// alike finds it loaded.
await import('node:http');
const event = JSON.parse(readFileSync(process.env.COLD_EVENT, 'utf8'));
const t0 = performance.now();
const mod = await import(pathToFileURL(process.env.COLD_BUNDLE).href);
const t1 = performance.now();
const deadline = Date.now() + 10000;
const context = { awsRequestId: 'cold-' + process.pid, functionName: 'cold', functionVersion: '$LATEST', memoryLimitInMB: '512',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:cold', logGroupName: 'cold', logStreamName: 'cold',
  callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => deadline - Date.now() };
const cpu = process.cpuUsage();
const result = await mod.handler(event, context);
const t2 = performance.now();
const used = process.cpuUsage(cpu);
writeFileSync(process.env.COLD_OUT, JSON.stringify({ importMs: t1 - t0, firstCallMs: t2 - t1, firstCallCpuMs: (used.user + used.system) / 1000, status: result?.statusCode ?? null }));
process.exit(0);
`;

interface Sample {
  importMs: number;
  firstCallMs: number;
  /** The process's CPU time during the first call: its own work, without DynamoDB Local's. */
  firstCallCpuMs: number;
  status: number | null;
  /** The first call's DynamoDB requests, from its request log line (none for the yardsticks). */
  requests?: number;
}

/** The `dynamodb.requests` of the request line a function printed, if it printed one. */
function loggedRequests(stdout: string): number | undefined {
  for (const line of stdout.split('\n')) {
    if (!line.includes('"request"')) continue;
    try {
      const entry = JSON.parse(line) as { message?: string; dynamodb?: { requests?: number } };
      if (entry.message === 'request') return entry.dynamodb?.requests;
    } catch {
      // Not a JSON line.
    }
  }
  return undefined;
}

/** Runs one bundle in a fresh process, as Lambda starts it (source maps on, as the stack sets). */
function coldRun(bundle: string, eventFile: string, env: NodeJS.ProcessEnv, work: string): Sample {
  const out = join(work, 'sample.json');
  const r = spawnSync(NODE, ['--enable-source-maps', '--input-type=module', '-e', CHILD], {
    env: { ...env, COLD_BUNDLE: bundle, COLD_EVENT: eventFile, COLD_OUT: out },
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`${bundle} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { ...(JSON.parse(readFileSync(out, 'utf8')) as Sample), requests: loggedRequests(r.stdout) };
}

/** The synthesized bundle of each function, by operation id (the consumer's tag too). */
function synthesizedBundles(): Map<string, string> {
  let dir = process.env.BENCH_CDK_OUT;
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), 'bench-cold-cdk-'));
    console.error(`cdk synth into ${dir} …`);
    execFileSync('npx', ['cdk', 'synth', '-q', '-o', dir], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  type Template = {
    Resources: Record<string, { Type: string; Metadata?: Record<string, string>; Properties: { Tags?: { Key: string; Value: string }[] } }>;
  };
  // The functions live in the parent stack and in its nested stacks, one template each.
  const templates = readdirSync(dir).filter((f) => f.endsWith('.template.json'));
  const bundles = new Map<string, string>();
  for (const file of templates) {
    const template = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Template;
    for (const r of Object.values(template.Resources)) {
      if (r.Type !== 'AWS::Lambda::Function') continue;
      const op = r.Properties.Tags?.find((t) => t.Key === OPERATION_TAG)?.Value;
      const asset = r.Metadata?.['aws:asset:path'];
      if (op && asset) bundles.set(op, join(dir, asset, 'index.mjs'));
    }
  }
  return bundles;
}

/** A yardstick's bundle: the stack's esbuild options, without the project's module aliases. */
async function yardstickBundle(work: string, entry: string): Promise<string> {
  const outfile = join(work, entry.replace(/\W+/g, '-'), 'index.mjs');
  await build({ ...esbuildOptions(entry), alias: {}, sourcemap: true, sourcesContent: false, outfile, logLevel: 'error' });
  return outfile;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round = (x: number, places = 2) => Math.round(x * 10 ** places) / 10 ** places;

async function main(): Promise<number> {
  const started = Date.now();
  const bundles = synthesizedBundles();
  const t = await benchTable('cold');
  const work = mkdtempSync(join(tmpdir(), 'bench-cold-'));
  try {
    const baseline = await yardstickBundle(work, 'bench/cold-baseline.ts');
    const floorBundles = await Promise.all(FLOORS.map((f) => yardstickBundle(work, f.entry)));
    const floorSamples: Sample[][] = FLOORS.map(() => []);
    const noEvent = join(work, 'no-event.json');
    writeFileSync(noEvent, '{}');
    const fixtures = join(REPO_ROOT, 'events-fixtures');
    const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8')) as { fixtures: { fixture: string; operation: string; status: number }[] };
    const editor = await mintToken(t.keys, { role: 'editor', sub: 'fixture-editor', ttl: '12h' });
    // The main fixture of each operation is measured; the others run for the state they leave.
    const runs = [
      ...manifest.fixtures.map((f) => ({ ...f, measured: f.fixture === `${f.operation}.json` })),
      { fixture: 'stream.consumer.json', operation: 'stream.consumer', status: null, measured: true },
    ];
    const samples = new Map<string, Sample[]>();
    const base: Sample[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Every round starts from an empty table, as the manifest expects.
      const table = `${t.tableName}-${r}`;
      await ensureTable(table);
      // As the stack runs them: no log level or metrics switch of this process's own, and the
      // runtime API's address Lambda sets (a process handed one invocation at a time: lib/runtime/scope.ts).
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        TABLE_NAME: table,
        AWS_REGION: 'us-east-1',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001',
      };
      for (const k of ['LOG_LEVEL', 'POWERTOOLS_LOG_LEVEL', 'POWERTOOLS_METRICS_DISABLED', 'AWS_LAMBDA_MAX_CONCURRENCY']) delete env[k];
      for (const [i, f] of runs.entries()) {
        const bundle = bundles.get(f.operation);
        if (!bundle || !existsSync(bundle)) throw new Error(`No synthesized bundle for ${f.operation}`);
        const eventFile = join(work, f.fixture);
        writeFileSync(eventFile, readFileSync(join(fixtures, f.fixture), 'utf8').replaceAll('{{token:editor}}', editor));
        const order = (r + i) % 2 === 0 ? ['fn', 'base'] : ['base', 'fn'];
        for (const which of order) {
          if (which === 'base') {
            if (f.measured) base.push(coldRun(baseline, eventFile, env, work));
            continue;
          }
          const s = coldRun(bundle, eventFile, env, work);
          if (f.status !== null && s.status !== f.status) throw new Error(`${f.fixture}: status ${s.status}, the manifest expects ${f.status}`);
          if (f.measured) samples.set(f.operation, [...(samples.get(f.operation) ?? []), s]);
        }
      }
      for (let k = 0; k < FLOOR_RUNS; k++) {
        for (const [i, bundle] of floorBundles.entries()) {
          const pair = () => floorSamples[i]!.push(coldRun(bundle, noEvent, env, work));
          const base1 = () => base.push(coldRun(baseline, noEvent, env, work));
          for (const run of (r + k + i) % 2 === 0 ? [pair, base1] : [base1, pair]) run();
        }
      }
      console.error(`round ${r + 1}/${ROUNDS} done`);
    }
    const b = {
      importMs: round(median(base.map((s) => s.importMs))),
      firstCallMs: round(median(base.map((s) => s.firstCallMs))),
      firstCallCpuMs: round(median(base.map((s) => s.firstCallCpuMs))),
      bytes: readFileSync(baseline).length,
    };
    const times = (list: Sample[]) => {
      const importMs = round(median(list.map((s) => s.importMs)));
      const firstCallMs = round(median(list.map((s) => s.firstCallMs)));
      const firstCallCpuMs = round(median(list.map((s) => s.firstCallCpuMs)));
      return {
        importMs,
        firstCallMs,
        firstCallCpuMs,
        ratios: { import: round(importMs / b.importMs), firstCall: round(firstCallMs / b.firstCallMs), firstCallCpu: round(firstCallCpuMs / b.firstCallCpuMs) },
      };
    };
    const floors = FLOORS.map((f, i) => ({ name: f.name, requests: f.requests, bytes: readFileSync(floorBundles[i]!).length, ...times(floorSamples[i]!) }));
    const functions = [...samples].map(([op, list]) => {
      const access = op === 'stream.consumer' ? 'write' : operation(op).access;
      const measured = times(list);
      const target = TARGETS[access];
      const requests = list.map((s) => s.requests).filter((n) => n !== undefined);
      return {
        operation: op,
        access,
        bytes: readFileSync(bundles.get(op)!).length,
        ...(requests.length ? { requests: median(requests) } : {}),
        ...measured,
        target,
        met: measured.ratios.import <= target && measured.ratios.firstCall <= target,
      };
    });
    const context = runContext();
    const results: ColdResults = {
      generatedAt: new Date().toISOString(),
      ...context,
      machine: { ...context.machine, node: NODE === process.execPath ? process.version : execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim() },
      rounds: ROUNDS,
      seconds: Math.round((Date.now() - started) / 1000),
      baseline: b,
      floors,
      functions,
    };
    mkdirSync(dirname(RESULTS), { recursive: true });
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    await writeTable('cold', renderCold(results));
    console.log(renderCold(results));
    return functions.every((f) => f.met) ? 0 : 1;
  } finally {
    await t.dynamo?.stop();
  }
}

runBench(main);
