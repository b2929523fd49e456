// `npm run bench:handlers`: what each read costs the function that serves it, and what the local
// server serves, side by side with another commit.
//
// 1. For every read operation of the operation table, one representative request through the
//    real handler in this process, BENCH_CALLS times after a warm-up: DynamoDB requests, sequential
//    stages and read units per call (the store's tally; every request is given the same added
//    round trip, BENCH_ROUND_TRIP_MS, as on AWS, so that stages are counted and not blurred), and
//    the handler's CPU time per call (process.cpuUsage around the call: the handler and the AWS
//    SDK; DynamoDB Local is another process), p50 and p99.
// 2. The local gateway of this checkout and of BENCH_BASELINE (a commit, default the one before
//    the list changes, checked out in a temporary git worktree) serve the same table, beside a
//    floor (bench/floor-serve.ts: the DynamoDB requests this checkout's handler makes for each
//    request, in its stages, and its answer, with nothing else); five requests are sent by 4
//    connections for BENCH_SECONDS each, rotating the three servers, for BENCH_ROUNDS rounds:
//    requests per second, p50 latency and, from /proc, the CPU time per request of the server and
//    of DynamoDB Local, medians over the rounds. The floor's rate over the baseline's is the most
//    any server making these requests could gain on this machine.
//
// It seeds BENCH_EVENTS events (default 1,000) through the real handlers, writes
// bench/results/handlers.json (machine, date, commit) and rewrites its tables in bench/README.md.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { config } from '#lib/runtime/config.js';
import { capacity, db } from '#lib/store/db.js';
import { mintToken } from '#lib/local/dev-auth.js';
import { OPERATIONS, type Operation } from '#lib/contract/operations.js';
import { benchCli } from './cli.js';
import { cpuOf, serve } from './processes.js';
import { benchTable, runBench } from './main.js';
import { sentByDocumentClient } from './trace.js';
import { renderHandlers, runContext, writeTable, type HandlersResults, type Served } from './readme.js';
import type { FloorPlan } from './floor-serve.js';
import { call, planSeed, runSeed } from '#lib/local/demo-calendar.js';

const settings = benchCli(
  'bench:handlers',
  `What each read costs the function that serves it (a few minutes): seeds a calendar, sends one
request per read operation through the real handler (DynamoDB requests, stages, read units, CPU
time), then serves the same table with the local server of this checkout, of an earlier commit (a
temporary git worktree) and with a floor, side by side. Writes bench/results/handlers.json and the
tables in bench/README.md.`,
  {
    BENCH_EVENTS: { meaning: 'events seeded', default: 1000 },
    BENCH_CALLS: { meaning: 'calls per operation, after a warm-up', default: 100 },
    BENCH_ROUND_TRIP_MS: { meaning: 'round trip added to every DynamoDB request, in milliseconds', default: 20 },
    BENCH_SECONDS: { meaning: 'seconds per served measurement', default: 5 },
    BENCH_ROUNDS: { meaning: 'rounds over the three servers', default: 3 },
    BENCH_BASELINE: { meaning: 'the earlier commit served beside this checkout', default: '6d3445c' },
  },
);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const RESULTS = resolve(HERE, 'results', 'handlers.json');

const EVENTS = settings.count('BENCH_EVENTS');
const CALLS = settings.count('BENCH_CALLS');
const ROUND_TRIP_MS = settings.count('BENCH_ROUND_TRIP_MS');
const SECONDS = settings.count('BENCH_SECONDS');
const ROUNDS = settings.count('BENCH_ROUNDS');
const CONNECTIONS = 4;
const BASELINE = settings.text('BENCH_BASELINE')!;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** A read's sample request; `token` for the reads only editors may make. */
interface Sample {
  path: string;
  query?: Record<string, string | number>;
  token?: string;
}

/** A request for each read operation, with ids and slugs of the seeded calendar; `token` is an editor's, for the webhook reads (one subscription is made for them). */
async function samples(token: string): Promise<Map<string, Sample>> {
  const first = async (path: string, key: string) => {
    const res = await call('GET', 'en', path, { query: { per_page: 1 } });
    const item = (res.body[key] as Record<string, unknown>[] | undefined)?.[0];
    if (!item) throw new Error(`GET ${path} listed nothing`);
    return item as { id: number; slug: string };
  };
  const event = await first('/events', 'events');
  const venue = await first('/venues', 'venues');
  const organizer = await first('/organizers', 'organizers');
  const category = await first('/categories', 'categories');
  const tag = await first('/tags', 'tags');
  // Nothing is delivered to it: the bench's table has no stream. A public address, as subscriptions need.
  const hook = await call('POST', 'en', '/webhooks', { body: { url: 'https://93.184.215.14/bench-hook', events: ['*'] }, token });
  if (hook.status !== 201) throw new Error(`POST /webhooks -> ${hook.status} ${JSON.stringify(hook.body)}`);
  const out = new Map<string, Sample>([
    ['events.list', { path: '/events' }],
    ['events.get', { path: `/events/${event.id}` }],
    ['events.getBySlug', { path: `/events/by-slug/${event.slug}` }],
    ['venues.list', { path: '/venues' }],
    ['venues.get', { path: `/venues/${venue.id}` }],
    ['venues.getBySlug', { path: `/venues/by-slug/${venue.slug}` }],
    ['organizers.list', { path: '/organizers' }],
    ['organizers.get', { path: `/organizers/${organizer.id}` }],
    ['organizers.getBySlug', { path: `/organizers/by-slug/${organizer.slug}` }],
    ['categories.list', { path: '/categories' }],
    ['categories.get', { path: `/categories/${category.id}` }],
    ['tags.list', { path: '/tags' }],
    ['tags.get', { path: `/tags/${tag.id}` }],
    ['changes.list', { path: '/changes' }],
    ['webhooks.list', { path: '/webhooks', token }],
    ['webhooks.get', { path: `/webhooks/${hook.body.id}`, token }],
    ['webhooks.deliveries', { path: `/webhooks/${hook.body.id}/deliveries`, token }],
    ['root.index', { path: '' }],
  ]);
  // Every read operation of the table has a sample (a new one fails here until it gets one).
  const reads = OPERATIONS.filter((op: Operation) => op.access === 'read' && op.api === 'tec' && op.id !== 'root.doc');
  for (const op of reads) if (!out.has(op.id)) throw new Error(`bench:handlers has no sample request for ${op.id}`);
  return out;
}

async function perOperation(list: Map<string, Sample>): Promise<HandlersResults['operations']> {
  const stack = db().middlewareStack;
  stack.add(
    (next) => async (args) => {
      await new Promise((r) => setTimeout(r, ROUND_TRIP_MS));
      return next(args);
    },
    { step: 'initialize', name: 'benchRoundTrip' },
  );
  const out: HandlersResults['operations'] = [];
  try {
    for (const [id, s] of list) {
      for (let i = 0; i < 5; i++) await call('GET', 'en', s.path, { query: s.query, token: s.token });
      const cpu: number[] = [];
      const tallies: { requests: number; stages: number; read: number }[] = [];
      for (let i = 0; i < CALLS; i++) {
        capacity.reset();
        const before = process.cpuUsage();
        const res = await call('GET', 'en', s.path, { query: s.query, token: s.token });
        const used = process.cpuUsage(before);
        if (res.status !== 200) throw new Error(`${id} ${s.path} -> ${res.status}`);
        cpu.push((used.user + used.system) / 1000);
        tallies.push(capacity.snapshot());
      }
      const median = (k: 'requests' | 'stages' | 'read') =>
        quantile(
          tallies.map((t) => t[k]),
          0.5,
        );
      const most = (k: 'requests' | 'stages' | 'read') => Math.max(...tallies.map((t) => t[k]));
      const [requests, stages, read] = [median('requests'), median('stages'), median('read')];
      out.push({
        operation: id,
        request: s.path || '/',
        requests,
        stages,
        readUnits: read,
        worst: { requests: most('requests'), stages: most('stages'), readUnits: most('read') },
        cpuMs: { p50: round(quantile(cpu, 0.5)), p99: round(quantile(cpu, 0.99)) },
      });
      console.error(`${id}: ${requests} requests, ${stages} stages, ${read} RCU, CPU p50 ${round(quantile(cpu, 0.5))} ms`);
    }
  } finally {
    stack.remove('benchRoundTrip');
  }
  return out;
}

/**
 * What the handler sends DynamoDB for one request, stage by stage (requests sent before any
 * other's answer came back share a stage), and what it answers: the floor server's plan.
 */
async function planOf(path: string, query: Record<string, string>): Promise<FloorPlan[string]> {
  const sent: { command: string; input: object; answered: number; plain?: boolean }[] = [];
  let answered = 0;
  const stack = db().middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      const entry: (typeof sent)[number] = { command: String(context.commandName), input: structuredClone(args.input as object), answered };
      sent.push(entry);
      try {
        return await next(args);
      } finally {
        answered++;
        if (!sentByDocumentClient(context)) entry.plain = true;
      }
    },
    { step: 'initialize', priority: 'low', name: 'benchFloorPlan' },
  );
  try {
    const res = await call('GET', 'en', path, { query });
    if (res.status !== 200) throw new Error(`${path} -> ${res.status}`);
    const stages = new Map<number, FloorPlan[string]['stages'][number]>();
    for (const c of sent) stages.set(c.answered, [...(stages.get(c.answered) ?? []), { command: c.command, input: c.input, ...(c.plain ? { plain: true } : {}) }]);
    return { stages: [...stages.values()], body: JSON.stringify(res.body) };
  } finally {
    stack.remove('benchFloorPlan');
  }
}

/** `CONNECTIONS` keep-alive loops sending `path` for `seconds`: requests per second and p50. */
async function load(url: string, path: string, seconds: number): Promise<{ rps: number; p50: number; errors: number; count: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let errors = 0;
  const one = () =>
    new Promise<void>((ok) => {
      const started = performance.now();
      const req = request(`${url}${path}`, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - started);
          else errors++;
          ok();
        });
      });
      req.on('error', () => (errors++, ok()));
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) await one();
    }),
  );
  agent.destroy();
  return { rps: round(latencies.length / ((performance.now() - started) / 1000), 1), p50: round(quantile(latencies, 0.5), 1), errors, count: latencies.length + errors };
}

type Contender = 'baseline' | 'current' | 'floor';
const CONTENDERS: readonly Contender[] = ['baseline', 'current', 'floor'];

async function sideBySide(categoryId: number, eventId: number, dynamoPid: number | undefined): Promise<HandlersResults['servers']> {
  const base = `/en/${config().namespace}/events/v1`;
  const requests = [
    ['event list page', '/events', {}],
    ['category-filtered list', '/events', { categories: String(categoryId) }],
    ['event by id', `/events/${eventId}`, {}],
    ['categories', '/categories', {}],
    ['venues', '/venues', {}],
  ] as const;
  const url = (path: string, query: Record<string, string>) => `${base}${path}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`;
  // The floor's plan: what this checkout's handler sends and answers, warm (its second call).
  const plan: FloorPlan = {};
  for (const [, path, query] of requests) {
    await planOf(path, query);
    plan[url(path, query)] = await planOf(path, query);
  }
  const planFile = join(mkdtempSync(join(tmpdir(), 'bench-floor-')), 'plan.json');
  writeFileSync(planFile, JSON.stringify(plan));
  const worktree = mkdtempSync(join(tmpdir(), 'bench-baseline-'));
  rmSync(worktree, { recursive: true, force: true });
  execFileSync('git', ['worktree', 'add', '--detach', worktree, BASELINE], { cwd: ROOT, stdio: 'ignore' });
  const baselineCommit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: worktree, encoding: 'utf8' }).trim();
  // The baseline runs with its own dependencies: this checkout's when the lockfiles agree.
  const lock = (dir: string) => readFileSync(join(dir, 'package-lock.json'), 'utf8');
  if (lock(worktree) === lock(ROOT)) symlinkSync(join(ROOT, 'node_modules'), join(worktree, 'node_modules'));
  else execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: worktree, stdio: 'ignore' });
  const gateway = join(ROOT, 'bench', 'serve.ts');
  const servers: Record<Contender, { url: string; proc: ChildProcess }> = {
    baseline: await serve(gateway, [worktree], worktree),
    current: await serve(gateway, [ROOT], ROOT),
    floor: await serve(join(ROOT, 'bench', 'floor-serve.ts'), [planFile], ROOT),
  };
  try {
    const rounds: Record<string, Record<Contender, Served[]>> = {};
    for (const [name, path, query] of requests) {
      rounds[name] = { baseline: [], current: [], floor: [] };
      // Warm all (module loading, connections).
      for (const which of CONTENDERS) await load(servers[which].url, url(path, query), 1);
    }
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, path, query] of requests) {
        // Rotate which goes first, so that none always follows another.
        const order = CONTENDERS.map((_, i) => CONTENDERS[(i + r) % CONTENDERS.length]!);
        for (const which of order) {
          const before = { server: cpuOf(servers[which].proc.pid), dynamo: cpuOf(dynamoPid) };
          const m = await load(servers[which].url, url(path, query), SECONDS);
          if (m.errors) throw new Error(`${which} ${path}: ${m.errors} failed requests`);
          const per = (now: number | undefined, then: number | undefined) => (now === undefined || then === undefined || !m.count ? undefined : round((now - then) / m.count, 1));
          rounds[name]![which].push({
            rps: m.rps,
            p50: m.p50,
            serverCpuMs: per(cpuOf(servers[which].proc.pid), before.server),
            dynamoCpuMs: per(cpuOf(dynamoPid), before.dynamo),
          });
          console.error(`round ${r + 1} ${name} ${which}: ${m.rps} req/s, p50 ${m.p50} ms`);
        }
      }
    }
    const med = (xs: number[]) => quantile(xs, 0.5);
    const summary = (xs: Served[]): Served => {
      const cpu = (k: 'serverCpuMs' | 'dynamoCpuMs') => (xs.every((x) => x[k] !== undefined) ? { [k]: med(xs.map((x) => x[k]!)) } : {});
      return { rps: med(xs.map((x) => x.rps)), p50: med(xs.map((x) => x.p50)), ...cpu('serverCpuMs'), ...cpu('dynamoCpuMs') };
    };
    return {
      baselineCommit,
      connections: CONNECTIONS,
      seconds: SECONDS,
      rounds: ROUNDS,
      requests: requests.map(([name, path, query]) => {
        const [baseline, current, floor] = CONTENDERS.map((which) => summary(rounds[name]![which]));
        const stages = plan[url(path, query)]!.stages;
        return {
          name,
          path: url(path, query).slice(base.length),
          baseline: baseline!,
          current: current!,
          floor: { ...floor!, requests: stages.flat().length, stages: stages.length },
          ratio: round(current!.rps / baseline!.rps),
          floorRatio: round(floor!.rps / baseline!.rps),
        };
      }),
    };
  } finally {
    for (const s of Object.values(servers)) s.proc.kill('SIGTERM');
    execFileSync('git', ['worktree', 'remove', '--force', worktree], { cwd: ROOT, stdio: 'ignore' });
    rmSync(dirname(planFile), { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  // No stream: nothing here consumes it, and DynamoDB Local would charge every request for it.
  const t = await benchTable('handlers', { stream: false });
  try {
    const token = await mintToken(t.keys, { role: 'editor', sub: 'bench-editor', ttl: '12h' });
    const plan = planSeed(EVENTS, 42, new Date());
    const { ids } = await runSeed(plan, token, 6);
    const list = await samples(token);
    const operations = await perOperation(list);
    const eventId = Number(/\/events\/(\d+)$/.exec(list.get('events.get')!.path)![1]);
    const servers = await sideBySide(ids.categories.en[0]!.id, eventId, t.dynamo?.pid);
    const results: HandlersResults = {
      generatedAt: new Date().toISOString(),
      ...runContext(),
      events: EVENTS,
      calls: CALLS,
      roundTripMs: ROUND_TRIP_MS,
      seconds: Math.round((Date.now() - started) / 1000),
      operations,
      servers,
    };
    await mkdir(dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    await writeTable('handlers', renderHandlers(results));
    console.log(renderHandlers(results));
    return 0;
  } finally {
    await t.dynamo?.stop();
  }
}

runBench(main);
