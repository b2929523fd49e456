// `npm run bench:storms`: bursts of creates, all sent at once, as a busy site sends them. Three
// variants of BENCH_CREATES (default 200) creates, each in a month nothing had touched:
//
//   unique: distinct titles (they share the month's count buckets and the id sequence);
//   title:  one title (every writer wants one slug);
//   shared: distinct titles linking one venue, one category and one tag (they also share the
//           venue's and the terms' records and the count buckets of their lists).
//
// Each in two modes (BENCH_MODES):
//   `http`: what a client sees. Every variant starts `npm start -- --memory` afresh (its own
//           DynamoDB Local, a fresh table, the stream consumer running), creates what the variant
//           links, and sends the burst through HTTP from this process; the server's and DynamoDB
//           Local's CPU time are read from /proc.
//   `dynamodb`: the handler modules in-process on a fresh in-memory table, with the store's client
//           refusing transactions that meet on an item as DynamoDB does (bench/conflicts.ts:
//           TransactionConflict while another transaction on the item is out), which DynamoDB
//           Local queues instead.
//
// Per variant it reports successes, errors by status and code, p50 / p99 latency, and checks the
// totals against the records read one by one: every success reads back by id and slug, the month's
// list (total and ids) holds exactly the successes (a failed create wrote nothing), and for
// `shared` the venue's, category's and tag's list totals and the terms' counts equal the records
// that link them. Targets: >= 95 % succeed, every failure a 503 with Retry-After (a 409 only for a
// record another request changed), p99 under 25 s (API Gateway answers at 30 s). The figures go to
// bench/results/storms.json and its table in bench/README.md. Exit code 1 when a check fails, 2 on an error.
//
// Its settings are environment variables (`npm run bench:storms -- --help` lists them).
import '../scripts/sdk-quiet.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { db } from '#lib/store/db.js';
import { getItem } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import { withShardTotal } from '#lib/store/record-shards.js';
import { ofKind } from '#lib/store/items.js';
import { mintToken } from '#lib/local/dev-auth.js';
import { freePort, localClient } from '#lib/local/dynamo.js';
import { ensureDevKeys } from '#lib/local/dev-auth.js';
import { invoke } from '#lib/local/invoke.js';
import { benchCli } from './cli.js';
import { benchTable, runBench } from './main.js';
import { refuseConflicts, type Refusals } from './conflicts.js';
import { renderStorms, runContext, writeTable, type Mode, type StormVariant } from './readme.js';
import { pool } from '#lib/runtime/pool.js';

const settings = benchCli(
  'bench:storms',
  `Bursts of creates sent all at once (a few minutes): distinct titles, one title, and one shared
venue and terms, through HTTP to a fresh npm start each, and in-process with transactions that meet
refused as DynamoDB refuses them. Checks >= 95 % success (the rest a 503 with Retry-After that wrote
nothing), p99 under 25 s, and every total against the records read one by one; writes
bench/results/storms.json (and its table in bench/README.md for a default run) and exits 1 when a check fails.`,
  {
    BENCH_CREATES: { meaning: 'creates per variant, all sent at once', default: 200 },
    BENCH_ONLY: { meaning: 'the variants to run, separated by commas', default: 'unique,title,shared' },
    BENCH_MODES: { meaning: 'http (a fresh npm start per variant), dynamodb (in-process, transactions that meet refused as DynamoDB does), or both', default: 'http,dynamodb' },
  },
);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = resolve(HERE, 'results', 'storms.json');
const CREATES = settings.count('BENCH_CREATES');
/** A setting's comma-separated values. */
const valuesOf = (name: string) =>
  settings
    .text(name)!
    .split(',')
    .map((s) => s.trim());
const ONLY = new Set(valuesOf('BENCH_ONLY'));
const MODES = valuesOf('BENCH_MODES').filter((m): m is Mode => m === 'http' || m === 'dynamodb');
const DEFAULT_RUN = CREATES === 200 && ['unique', 'title', 'shared'].every((v) => ONLY.has(v)) && MODES.length === 2;
const MIN_SUCCESS = 0.95;
/** API Gateway gives up at 30 s. */
const MAX_P99_MS = 25_000;

// --- the store, seen from inside ------------------------------------------------------------------

/** Requests by command, and the items cancelled transactions named, by reason and kind of item. */
const store = { commands: {} as Record<string, number>, cancelled: {} as Record<string, number> };

/** `COUNT LIST#event#en#publish`, `POST`, `TERM`, `SLUG#event`… */
const kindOf = (key: { pk?: unknown; sk?: unknown } = {}) => {
  const [head, second] = String(key.pk ?? '?').split('#');
  if (head === 'COUNT') return `COUNT ${String(key.pk).slice(6).split('#').slice(3).join('#') || 'all'}`;
  if (head === 'POST' || head === 'TERM') return String(key.sk).startsWith('EVENT#') ? `${head} link` : head!;
  return head === 'SLUG' ? `SLUG#${second}` : head!;
};

function watchStore(): void {
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName).replace(/Command$/, '');
      store.commands[command] = (store.commands[command] ?? 0) + 1;
      try {
        return await next(args);
      } catch (err) {
        const items = (args.input as { TransactItems?: Record<string, any>[] }).TransactItems ?? [];
        ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).forEach((r, i) => {
          if (!r.Code || r.Code === 'None') return;
          const op = items[i]?.Put ?? items[i]?.Update ?? items[i]?.Delete ?? items[i]?.ConditionCheck;
          const k = `${r.Code} ${kindOf(op?.Item ?? op?.Key)}`;
          store.cancelled[k] = (store.cancelled[k] ?? 0) + 1;
        });
        throw err;
      }
    },
    { step: 'initialize', name: 'benchStormsStore' },
  );
}

/** The CPU milliseconds a process used so far (fields 14 and 15 of /proc/<pid>/stat, in ticks of 10 ms). */
function cpuMsOf(pid: number | undefined): number | undefined {
  try {
    const [utime, stime] = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ').slice(11, 13);
    return (Number(utime) + Number(stime)) * 10;
  } catch {
    return undefined;
  }
}

/** The processes whose CPU a variant counts: the one serving the API and DynamoDB Local's JVM. */
const watched: { server?: number; dynamo?: number } = {};
const cpuNow = () => ({ server: watched.server === undefined ? undefined : cpuMsOf(watched.server), dynamo: cpuMsOf(watched.dynamo) });

// --- requests ---------------------------------------------------------------------------------------

let token: string;

interface Answer {
  status: number;
  body: any;
  ms: number;
  retryAfter?: string;
}

/** Where requests go: a server's URL (mode `http`), or the handler modules in-process. */
let target: string | undefined;

/** One request, through HTTP to `target` or through its operation's handler as Lambda runs it. */
async function send(method: string, path: string, body?: unknown, auth = true): Promise<Answer> {
  const started = performance.now();
  if (target) {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (auth) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${target}/en/tribe/events/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, body: parsed, ms: performance.now() - started, retryAfter: res.headers.get('retry-after') ?? undefined };
  }
  const [route, search = ''] = path.split('?');
  const query = Object.fromEntries(new URLSearchParams(search));
  const res = await invoke(method, 'en', route!, { body, query, token: auth ? token : undefined });
  const retryAfter = res.headers['retry-after'];
  return { status: res.status, body: res.body, ms: performance.now() - started, retryAfter: retryAfter === undefined ? undefined : String(retryAfter) };
}

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await send(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body;
}

/** `n` calls of `fn`, at most `width` at a time (all at once by default). */
const burst = <T>(n: number, fn: (i: number) => Promise<T>, width = n): Promise<T[]> =>
  pool(
    Array.from({ length: n }, (_, i) => i),
    width,
    fn,
  );

const day = (month: string, i: number) => `${month}-${String(1 + (i % 28)).padStart(2, '0')}`;
const window = (month: string) => `start_date=${month}-01&end_date=${month}-28 23:59:59`;

/** A month's published list as anonymous clients page through it: its total and every id. */
async function listed(month: string, filter = ''): Promise<{ total: number; ids: number[] }> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const res = await send('GET', `/events?${window(month)}&per_page=50&page=${page}${filter}`, undefined, false);
    if (res.status === 404 && page > 1) return { total: ids.length, ids };
    if (res.status !== 200) throw new Error(`GET /events page ${page} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    ids.push(...(res.body.events as { id: number }[]).map((e) => e.id));
    if (ids.length >= res.body.total || !res.body.events.length) return { total: res.body.total, ids };
  }
}

// --- variants -------------------------------------------------------------------------------------

interface Check {
  name: string;
  pass: boolean;
  detail: string;
}

const check = (name: string, pass: boolean, detail: string): Check => ({ name, pass, detail });
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : 0;
};

interface Variant extends StormVariant {
  checks: Check[];
  store?: typeof store;
  /** Transactions and single writes refused as DynamoDB refuses them (mode `dynamodb`). */
  refused?: { transactions: number; writes: number };
}

let refusals: Refusals | undefined;

interface Plan {
  key: string;
  label: string;
  month: string;
  body: (i: number) => Record<string, unknown>;
  /** Totals that must equal the successes, read after the burst: name -> figure. */
  totals?: () => Promise<Record<string, number>>;
}

async function runVariant(plan: Plan, mode: Mode): Promise<Variant> {
  console.error(`${plan.label} (${mode}): ${CREATES} creates at once…`);
  Object.assign(store, { commands: {}, cancelled: {} });
  if (refusals) refusals.on = mode === 'dynamodb';
  const refusedBefore = { transactions: refusals?.transactions ?? 0, writes: refusals?.writes ?? 0 };
  const started = performance.now();
  const cpu = process.cpuUsage();
  const before = cpuNow();
  const answers = await burst(CREATES, (i) =>
    send('POST', '/events', { start_date: `${day(plan.month, i)} 10:00:00`, end_date: `${day(plan.month, i)} 11:00:00`, ...plan.body(i) }),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  if (refusals) refusals.on = false;
  const after = cpuNow();
  // In-process, the server is this process; through HTTP, the server's process.
  const serverMs = mode === 'http' ? (after.server ?? 0) - (before.server ?? 0) : (used.user + used.system) / 1000;
  const dynamoUsed = before.dynamo === undefined || after.dynamo === undefined ? undefined : after.dynamo - before.dynamo;
  const errors: Record<string, number> = {};
  for (const a of answers) {
    if (a.status === 201) continue;
    const key = `${a.status}${a.body?.code ? ` ${a.body.code}` : ''}`;
    errors[key] = (errors[key] ?? 0) + 1;
  }
  const made = answers.filter((a) => a.status === 201).map((a) => ({ id: a.body.id as number, slug: a.body.slug as string }));
  const ms = answers.map((a) => a.ms);
  const v: Variant = {
    key: plan.key,
    label: plan.label,
    mode,
    creates: CREATES,
    succeeded: made.length,
    errors,
    latencyMs: { p50: Math.round(pct(ms, 50)), p99: Math.round(pct(ms, 99)), max: Math.round(Math.max(...ms)) },
    wallSeconds: Math.round(wallSeconds * 10) / 10,
    totals: {},
    cpuMsPerCreate: { server: Math.round(serverMs / CREATES), ...(dynamoUsed === undefined ? {} : { dynamoLocal: Math.round(dynamoUsed / CREATES) }) },
    checks: [],
    ...(mode === 'dynamodb' ? { store: structuredClone(store) } : {}),
    ...(mode === 'dynamodb' && refusals ? { refused: { transactions: refusals.transactions - refusedBefore.transactions, writes: refusals.writes - refusedBefore.writes } } : {}),
  };
  const failed = answers.filter((a) => a.status !== 201);
  v.checks.push(check(`>= ${MIN_SUCCESS * 100} % succeed`, made.length >= MIN_SUCCESS * CREATES, `${made.length} of ${CREATES}`));
  // A 409 says another request changed the same record, which a create of its own record never meets.
  const busy = (a: Answer) => a.status === 503 && a.retryAfter !== undefined && /^\d+$/.test(a.retryAfter);
  v.checks.push(
    check(
      'every failure is a 503 with Retry-After',
      failed.every(busy),
      failed.length
        ? Object.entries(errors)
            .map(([k, n]) => `${n} × ${k}`)
            .join(', ')
        : 'no failures',
    ),
  );
  v.checks.push(check(`p99 < ${MAX_P99_MS / 1000} s`, v.latencyMs.p99 < MAX_P99_MS, `${v.latencyMs.p99} ms`));
  v.checks.push(
    check('distinct ids and slugs', new Set(made.map((m) => m.id)).size === made.length && new Set(made.map((m) => m.slug)).size === made.length, `${made.length} created`),
  );

  // The records one by one: each success by id and by slug.
  const read = await burst(
    made.length,
    async (i) => {
      const m = made[i]!;
      const [byId, bySlug] = await Promise.all([send('GET', `/events/${m.id}`, undefined, false), send('GET', `/events/by-slug/${m.slug}`, undefined, false)]);
      return byId.status === 200 && byId.body.slug === m.slug && bySlug.status === 200 && bySlug.body.id === m.id;
    },
    50,
  );
  const records = read.filter(Boolean).length;
  v.totals.records = records;
  v.checks.push(check('every success reads back by id and slug', records === made.length, `${records} of ${made.length}`));
  const list = await listed(plan.month);
  const want = new Set(made.map((m) => m.id));
  const extra = list.ids.filter((id) => !want.has(id)).length;
  v.totals.list = list.total;
  v.checks.push(
    check(
      'the month lists exactly the records (a failure wrote nothing)',
      list.total === records && list.ids.length === records && extra === 0,
      `list total ${list.total}, ${list.ids.length} listed, ${extra} not a success, ${records} records`,
    ),
  );
  for (const [name, figure] of Object.entries((await plan.totals?.()) ?? {})) {
    v.totals[name] = figure;
    v.checks.push(check(`${name} = records`, figure === records, `${figure} vs ${records}`));
  }
  return v;
}

// --- main -----------------------------------------------------------------------------------------

/** A fresh `npm start -- --memory` (its own DynamoDB Local, so a fresh table) on a free port. */
async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--memory'], {
    cwd: resolve(HERE, '..'),
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DYNAMODB_ENDPOINT: '', TABLE_NAME: '', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 180_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    const up = await fetch(`${url}/en/tribe/events/v1/`).then(
      (r) => r.ok,
      () => false,
    );
    if (!up) continue;
    watched.server = child.pid;
    // DynamoDB Local's JVM is the server's child.
    const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
    watched.dynamo = children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal'));
    return { url, child };
  }
  child.kill('SIGKILL');
  throw new Error('npm start did not answer within 180 s');
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((ok) => child.once('exit', ok));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** The variants, each in a month of its own; `setup` makes the records they link. */
async function plansFor(mode: Mode, m: number, viaHttp: boolean): Promise<Plan[]> {
  const month = (k: number) => `${2031 + m}-0${k}`;
  const shared = async () => {
    const venue = (await ok('POST', '/venues', { venue: `Storm Hall ${mode}`, city: 'Riga' })).id as number;
    const category = (await ok('POST', '/categories', { name: `Storm category ${mode}` })).id as number;
    const tag = (await ok('POST', '/tags', { name: `Storm tag ${mode}` })).id as number;
    return { venue, category, tag };
  };
  const links = ONLY.has('shared') ? await shared() : undefined;
  const plans: Plan[] = [
    { key: 'unique', label: 'distinct titles', month: month(1), body: (i) => ({ title: `Storm unique ${i}` }) },
    { key: 'title', label: 'one title', month: month(2), body: () => ({ title: `Storm one title ${mode}` }) },
  ];
  if (links) {
    const { venue, category, tag } = links;
    plans.push({
      key: 'shared',
      label: 'one venue, category and tag',
      month: month(3),
      body: (i) => ({ title: `Storm shared ${i}`, venue, categories: [category], tags: [tag] }),
      totals: async () => ({
        'venue list total': (await listed(month(3), `&venue=${venue}`)).total,
        'category list total': (await listed(month(3), `&categories=${category}`)).total,
        'tag list total': (await listed(month(3), `&tags=${tag}`)).total,
        'category count': (await ok('GET', `/categories/${category}`)).count,
        'tag count': (await ok('GET', `/tags/${tag}`)).count,
        // A split venue keeps a part of the count in its shards (lib/store/record-shards.ts); read from the table in-process.
        ...(viaHttp ? {} : { 'venue linked events': (await withShardTotal(ofKind(await getItem(keys.post(venue)), 'venue')))?.linkedEvents ?? 0 }),
      }),
    });
  }
  return plans.filter((p) => ONLY.has(p.key));
}

async function main(): Promise<number> {
  const runStart = performance.now();
  const devKeys = await ensureDevKeys('.local');
  token = await mintToken(devKeys, { role: 'editor', sub: 'bench-storms-editor', ttl: '2h' });
  const variants: Variant[] = [];
  for (const [m, mode] of MODES.entries()) {
    if (mode === 'http') {
      // Each variant on a fresh server and table, its burst the first thing it serves after the records it links.
      for (const key of ONLY) {
        const { url, child } = await startServer();
        target = url;
        console.error(`npm start -- --memory at ${url} (server pid ${watched.server}, DynamoDB Local pid ${watched.dynamo})`);
        try {
          const plan = (await plansFor(mode, m, true)).find((p) => p.key === key);
          if (plan) variants.push(await runVariant(plan, mode));
        } finally {
          target = undefined;
          await stopServer(child);
        }
      }
      continue;
    }
    // No stream: nothing here consumes it, and DynamoDB Local would charge every request for it.
    const { dynamo, endpoint, tableName } = await benchTable('storms', { stream: process.env.BENCH_STREAM === '1' });
    if (!refusals) watchStore();
    refusals ??= refuseConflicts(db());
    refusals.on = false;
    watched.server = undefined;
    watched.dynamo = dynamo?.pid;
    console.error(`DynamoDB: ${endpoint}${dynamo ? ' (in-memory DynamoDB Local)' : ''}; table ${tableName}`);
    try {
      for (const plan of await plansFor(mode, m, false)) variants.push(await runVariant(plan, mode));
    } finally {
      if (dynamo) await dynamo.stop();
      else {
        const client = localClient(endpoint);
        await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
        client.destroy();
      }
    }
  }

  const checks = variants.flatMap((v) => v.checks.map((c) => ({ ...c, name: `${v.key} (${v.mode}): ${c.name}` })));
  console.log(`\n== ${CREATES} creates at once, per variant ==`);
  for (const v of variants) {
    const errors = Object.entries(v.errors).map(([s, n]) => `${s} ×${n}`);
    console.log(
      `${v.label} (${v.mode}): ${v.succeeded} succeeded${errors.length ? `, ${errors.join(', ')}` : ''}; p50 ${v.latencyMs.p50} ms, p99 ${v.latencyMs.p99} ms, max ${v.latencyMs.max} ms; ${v.wallSeconds} s`,
    );
    console.log(`   totals ${JSON.stringify(v.totals)}; CPU per create ${JSON.stringify(v.cpuMsPerCreate)} ms`);
    const cancelled = Object.entries(v.store?.cancelled ?? {}).sort((a, b) => b[1] - a[1]);
    if (v.store) {
      const commands = Object.entries(v.store.commands).map(([k, n]) => `${k} ×${n}`);
      console.log(`   requests ${commands.join(', ')}; cancelled items: ${cancelled.map(([k, n]) => `${k} ×${n}`).join(', ') || 'none'}`);
    }
    if (v.refused) console.log(`   refused as DynamoDB would: ${v.refused.transactions} transactions, ${v.refused.writes} single writes`);
  }
  console.log('\n== checks ==');
  for (const c of checks) console.log(`${c.pass ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  const failed = checks.filter((c) => !c.pass);
  const totalSeconds = (performance.now() - runStart) / 1000;
  console.log(`\nTotal time ${totalSeconds.toFixed(1)} s. ${failed.length ? `FAIL: ${failed.length} check(s).` : 'All checks PASS.'}`);

  const saved = {
    generatedAt: new Date().toISOString(),
    ...runContext(),
    transport: {
      http: 'a fresh `npm start -- --memory` per variant (its own DynamoDB Local and stream consumer), the burst sent through HTTP from another process',
      dynamodb:
        'the handler modules in-process, as Lambda runs them (function timeouts and table grants), on a fresh in-memory DynamoDB Local whose transactions that meet on an item are refused as DynamoDB refuses them',
    },
    creates: CREATES,
    totalSeconds: Math.round(totalSeconds),
    variants,
    pass: failed.length === 0,
  };
  await mkdir(dirname(RESULTS), { recursive: true });
  await writeFile(RESULTS, `${JSON.stringify(saved, null, 2)}\n`);
  console.error(`Wrote ${RESULTS}`);
  if (DEFAULT_RUN) {
    await writeTable('storms', renderStorms(saved));
    console.error('Updated the table in bench/README.md');
  }
  return failed.length ? 1 : 0;
}

runBench(main);
