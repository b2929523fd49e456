// `npm run bench:reads`: what a read costs the local server's CPU, now and at a base commit
// (BENCH_BASE), side by side. The base is checked out into a temporary git worktree (this
// checkout's node_modules linked in); each checkout's `npm start -- --memory` runs on its own port
// with its own DynamoDB Local. The same calendar is created in both through their HTTP APIs, then
// for each kind of read (a list page, the same page asked anew each time, a category's list, an event by id, the venues, one venue,
// the categories, the tags, an iCalendar feed) both servers get the same BENCH_REQUESTS requests,
// one at a time after a warm-up, and the CPU the server process and DynamoDB Local's JVM used is
// read from /proc before and after. The two servers take turns (which goes first alternates) and
// the rounds repeat (BENCH_ROUNDS), so that the medians survive a machine others are using.
// BENCH_PROFILE=<dir> starts both servers with `--cpu-prof` into <dir>/base and <dir>/now (the
// figures then include the profiler's cost, and no results are written). Writes bench/results/reads.json and its table in bench/README.md.
import '../scripts/sdk-quiet.js';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureDevKeys, mintToken } from '#lib/local/dev-auth.js';
import { freePort } from '#lib/local/dynamo.js';
import { benchCli } from './cli.js';
import { cpuOf } from './processes.js';
import { runBench } from './main.js';
import { renderReads, runContext, writeTable, type ReadKind } from './readme.js';

const settings = benchCli(
  'bench:reads',
  `CPU per read of this checkout's local server against BENCH_BASE's (a few minutes): both started
side by side with the same calendar created through HTTP, the same requests sent to each in turns,
the server's and DynamoDB Local's CPU read from /proc; medians of BENCH_ROUNDS rounds. Writes
bench/results/reads.json (and its table in bench/README.md for a default run).`,
  {
    BENCH_BASE: { meaning: 'the commit to compare with', default: '6d6d9f0' },
    BENCH_EVENTS: { meaning: 'events created in each server', default: 120 },
    BENCH_REQUESTS: { meaning: 'requests per kind of read, server and round', default: 60 },
    BENCH_WARMUP: { meaning: 'requests per kind of read before each measured round', default: 10 },
    BENCH_ROUNDS: { meaning: 'rounds (each server measured once per kind each round)', default: 15 },
    BENCH_ONLY: { meaning: 'the kinds of read to measure, separated by commas', default: 'list,new-list,category,event,venues,venue,categories,tags,ical' },
    BENCH_PROFILE: { meaning: "a directory for both servers' CPU profiles (node --cpu-prof), in base/ and now/; writes no results" },
  },
);

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const RESULTS = resolve(HERE, 'results', 'reads.json');
const BASE = settings.text('BENCH_BASE')!;
const EVENTS = settings.count('BENCH_EVENTS');
const REQUESTS = settings.count('BENCH_REQUESTS');
const WARMUP = settings.count('BENCH_WARMUP');
const ROUNDS = settings.count('BENCH_ROUNDS');
const PROFILE = settings.text('BENCH_PROFILE');
const ONLY = new Set(
  settings
    .text('BENCH_ONLY')!
    .split(',')
    .map((s) => s.trim()),
);

/** A process's CPU time in ms (its threads' scheduler statistics, in nanoseconds: bench/processes.ts). */
const cpuMsOf = (pid: number): number => cpuOf(pid) ?? 0;

interface Server {
  name: 'base' | 'now';
  url: string;
  child: ChildProcess;
  pid: number;
  dynamoPid: number;
  /** The DynamoDB requests and read units of the requests logged so far (the handlers' request lines). */
  logged: { requests: number; dynamodb: number; readUnits: number };
  /** What the reads name: an event id, a venue id and a category slug of this server's calendar. */
  ids: { events: number[]; venue: number; category: string };
}

/** `npm start -- --memory` of the checkout at `root` on a free port, once it answers. */
/** Adds up the request lines a server prints (LOG_FORMAT=json): one per request, with its DynamoDB use. */
function countLogged(child: ChildProcess): Server['logged'] {
  const logged = { requests: 0, dynamodb: 0, readUnits: 0 };
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!line.includes('"dynamodb"')) return;
    try {
      const l = JSON.parse(line) as { message?: string; dynamodb?: { requests?: number; read_units?: number } };
      if (l.message !== 'request' || !l.dynamodb) return;
      logged.requests += 1;
      logged.dynamodb += l.dynamodb.requests ?? 0;
      logged.readUnits += l.dynamodb.read_units ?? 0;
    } catch {
      // Not a log line.
    }
  });
  return logged;
}

async function startServer(name: Server['name'], root: string): Promise<Omit<Server, 'ids'>> {
  const port = await freePort();
  const prof = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE, name)}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', 'scripts/start.ts', '--memory'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DYNAMODB_ENDPOINT: '', TABLE_NAME: '', LOG_FORMAT: 'json', CHANGE_BUS_NAME: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logged = countLogged(child);
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 180_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
    if (child.exitCode !== null) throw new Error(`${name}: npm start exited with ${child.exitCode}`);
    const up = await fetch(`${url}/en/tribe/events/v1/`).then(
      (r) => r.ok,
      () => false,
    );
    if (!up) continue;
    const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
    const dynamoPid = children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal'));
    if (!dynamoPid) throw new Error(`${name}: no DynamoDB Local under the server`);
    return { name, url, child, pid: child.pid!, dynamoPid, logged };
  }
  child.kill('SIGKILL');
  throw new Error(`${name}: npm start did not answer within 180 s`);
}

/** A busy machine can keep DynamoDB Local from starting within a checkout's fixed timeout: try again. */
async function startWithRetries(name: Server['name'], root: string): Promise<Omit<Server, 'ids'>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServer(name, root);
    } catch (err) {
      if (attempt === 3) throw err;
      console.error(`${(err as Error).message}; starting again`);
    }
  }
}

let token = '';

async function call(server: Omit<Server, 'ids'>, method: string, path: string, body?: unknown): Promise<{ status: number; text: string; type: string }> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const res = await fetch(`${server.url}/en/tribe/events/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
}

async function create(server: Omit<Server, 'ids'>, path: string, body: Record<string, unknown>): Promise<any> {
  const res = await call(server, 'POST', path, body);
  if (res.status !== 201) throw new Error(`${server.name}: POST ${path} -> ${res.status}: ${res.text.slice(0, 300)}`);
  return JSON.parse(res.text);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The same calendar in a server: 6 venues, 3 organizers, 5 categories, 8 tags and EVENTS events over the coming 60 days. */
async function seed(server: Omit<Server, 'ids'>, from: Date): Promise<Server['ids']> {
  const venues: number[] = [];
  for (let i = 0; i < 6; i++) venues.push((await create(server, '/venues', { venue: `Hall ${i + 1}`, address: `${i + 1} Main Street`, city: 'Vilnius', country: 'Lithuania' })).id);
  const organizers: number[] = [];
  for (let i = 0; i < 3; i++) organizers.push((await create(server, '/organizers', { organizer: `Organizer ${i + 1}`, email: `org${i + 1}@example.com` })).id);
  const categories: { id: number; slug: string }[] = [];
  for (const name of ['Concerts', 'Theatre', 'Talks', 'Markets', 'Sports']) categories.push(await create(server, '/categories', { name }));
  const tags: number[] = [];
  for (const name of ['free', 'family', 'outdoor', 'jazz', 'kids', 'evening', 'weekend', 'new']) tags.push((await create(server, '/tags', { name })).id);
  const events: number[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const d = new Date(from.getTime() + Math.floor((i * 60) / EVENTS) * 86_400_000);
    const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    const hour = 9 + (i % 10);
    const e = await create(server, '/events', {
      title: `Event ${i + 1}: ${['Evening concert', 'Morning talk', 'Market day', 'Open rehearsal'][i % 4]}`,
      description: `<p>The ${i + 1}th event of the season, with <strong>guests</strong> and a <a href="https://example.com/${i}">programme</a>.</p>`,
      excerpt: `Event number ${i + 1}.`,
      start_date: `${date} ${pad(hour)}:00:00`,
      end_date: `${date} ${pad(hour + 2)}:00:00`,
      venue: venues[i % venues.length],
      organizer: [organizers[i % organizers.length]],
      categories: [categories[i % categories.length]!.id],
      tags: [tags[i % tags.length], tags[(i + 3) % tags.length]],
      cost: i % 3 ? `${5 + (i % 20)}` : 'Free',
      website: `https://example.com/events/${i + 1}`,
    });
    events.push(e.id);
  }
  return { events, venue: venues[0]!, category: categories[0]!.slug };
}

/** Waits until a process stops using CPU (the stream consumer has caught up), at most 60 s. */
async function quiet(pid: number): Promise<void> {
  for (let last = cpuMsOf(pid), until = Date.now() + 60_000; Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 1500));
    const now = cpuMsOf(pid);
    if (now - last <= 30) return;
    last = now;
  }
}

interface Kind {
  key: string;
  label: string;
  /** The i-th request's path for a server. */
  path: (s: Server, i: number) => string;
}

/** Requests that are each new: a parameter no request shared (TEC ignores it), so that no answer kept whole serves them. */
let fresh = 0;

const ALL_KINDS: Kind[] = [
  { key: 'list', label: 'list page (`/events`)', path: () => '/events' },
  { key: 'new-list', label: 'list page, each request new (`/events?n=…`)', path: () => `/events?n=${++fresh}` },
  { key: 'category', label: 'category list (`/events?categories=…`)', path: (s) => `/events?categories=${s.ids.category}` },
  { key: 'event', label: 'event by id (`/events/<id>`)', path: (s, i) => `/events/${s.ids.events[i % 20]}` },
  { key: 'venues', label: 'venues (`/venues`)', path: () => '/venues' },
  { key: 'venue', label: 'a venue (`/venues/<id>`)', path: (s) => `/venues/${s.ids.venue}` },
  { key: 'categories', label: 'categories (`/categories`)', path: () => '/categories' },
  { key: 'tags', label: 'tags (`/tags`)', path: () => '/tags' },
  { key: 'ical', label: 'iCalendar feed (`/events?ical=1`)', path: () => '/events?ical=1' },
];

const KINDS = ALL_KINDS.filter((k) => ONLY.has(k.key));
const DEFAULT_RUN = BASE === '6d6d9f0' && EVENTS === 120 && REQUESTS === 60 && WARMUP === 10 && ROUNDS === 15 && !PROFILE && KINDS.length === ALL_KINDS.length;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round2 = (x: number) => Math.round(x * 100) / 100;

const emptyRun = () => ({ server: [] as number[], dynamo: [] as number[], serverRaw: [] as number[], idleServer: [] as number[], type: '', dynamodbRequests: 0, readUnits: 0 });

/** How long the server and DynamoDB Local sit quiet after a round, to measure what they use unasked. */
const IDLE_MS = 1_000;

/**
 * The CPU ms per ms of wall time the server and its DynamoDB Local use with no request under way:
 * the local runtime's stream poller and webhook queue (a Lambda function runs neither), and what
 * DynamoDB Local does for them. A round's requests are measured net of it.
 */
async function idleRates(s: Server): Promise<{ server: number; dynamo: number }> {
  const before = [cpuMsOf(s.pid), cpuMsOf(s.dynamoPid)];
  const from = performance.now();
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const wallMs = performance.now() - from;
  return { server: (cpuMsOf(s.pid) - before[0]!) / wallMs, dynamo: (cpuMsOf(s.dynamoPid) - before[1]!) / wallMs };
}

/** One measured round of a kind on a server: CPU ms per request of the server and of DynamoDB Local. */
async function measure(
  s: Server,
  kind: Kind,
): Promise<{ server: number; dynamo: number; serverRaw: number; idleServer: number; type: string; dynamodbRequests: number; readUnits: number }> {
  let type = '';
  for (let i = 0; i < WARMUP; i++) {
    const res = await call(s, 'GET', kind.path(s, i));
    if (res.status !== 200) throw new Error(`${s.name}: GET ${kind.path(s, i)} -> ${res.status}: ${res.text.slice(0, 300)}`);
    type = res.type;
  }
  // The warm-up's lines are counted first: a line is printed as its answer goes out.
  await new Promise((r) => setTimeout(r, 50));
  const logged = { ...s.logged };
  const before = [cpuMsOf(s.pid), cpuMsOf(s.dynamoPid)];
  const from = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const res = await call(s, 'GET', kind.path(s, i));
    if (res.status !== 200) throw new Error(`${s.name}: GET ${kind.path(s, i)} -> ${res.status}`);
  }
  const after = [cpuMsOf(s.pid), cpuMsOf(s.dynamoPid)];
  const wallMs = performance.now() - from;
  const idle = await idleRates(s);
  const lines = s.logged.requests - logged.requests;
  return {
    server: (after[0]! - before[0]! - idle.server * wallMs) / REQUESTS,
    dynamo: (after[1]! - before[1]! - idle.dynamo * wallMs) / REQUESTS,
    serverRaw: (after[0]! - before[0]!) / REQUESTS,
    idleServer: idle.server * 1000,
    type,
    dynamodbRequests: lines ? (s.logged.dynamodb - logged.dynamodb) / lines : 0,
    readUnits: lines ? (s.logged.readUnits - logged.readUnits) / lines : 0,
  };
}

async function main(): Promise<number> {
  const base = execFileSync('git', ['rev-parse', BASE], { cwd: ROOT, encoding: 'utf8' }).trim();
  const tmp = mkdtempSync(join(tmpdir(), 'bench-reads-'));
  const tree = join(tmp, 'base');
  const servers: Omit<Server, 'ids'>[] = [];
  try {
    execFileSync('git', ['worktree', 'add', '--detach', tree, base], { cwd: ROOT, stdio: 'ignore' });
    symlinkSync(resolve(ROOT, 'node_modules'), join(tree, 'node_modules'));
    // Both servers trust the same development issuer, so one token creates the calendar in each.
    const keys = await ensureDevKeys(resolve(ROOT, '.local'));
    mkdirSync(join(tree, '.local'), { recursive: true });
    copyFileSync(resolve(ROOT, '.local', 'dev-keys.json'), join(tree, '.local', 'dev-keys.json'));
    token = await mintToken(keys, { role: 'editor' });
    if (PROFILE && !existsSync(PROFILE)) mkdirSync(PROFILE, { recursive: true });

    console.error(`Starting ${base.slice(0, 7)} and this checkout…`);
    for (const [name, root] of [
      ['base', tree],
      ['now', ROOT],
    ] as const)
      servers.push(await startWithRetries(name, root));
    const from = new Date(Date.now() + 86_400_000);
    const ready: Server[] = [];
    for (const s of servers) {
      console.error(`${s.name}: creating ${EVENTS} events at ${s.url}…`);
      ready.push({ ...s, ids: await seed(s, from) });
    }
    for (const s of ready) await quiet(s.pid);

    const runs: Record<string, Record<Server['name'], ReturnType<typeof emptyRun>>> = {};
    for (const k of KINDS) runs[k.key] = { base: emptyRun(), now: emptyRun() };
    const measuredFrom = Date.now();
    for (let r = 0; r < ROUNDS; r++) {
      for (const [j, kind] of KINDS.entries()) {
        // Which server goes first alternates, so that neither always meets the same neighbours' load.
        const order = (r + j) % 2 ? [ready[1]!, ready[0]!] : [ready[0]!, ready[1]!];
        for (const s of order) {
          const m = await measure(s, kind);
          const into = runs[kind.key]![s.name];
          into.server.push(round2(m.server));
          into.dynamo.push(round2(m.dynamo));
          into.serverRaw.push(round2(m.serverRaw));
          into.idleServer.push(round2(m.idleServer));
          into.type = m.type;
          into.dynamodbRequests = round2(m.dynamodbRequests);
          into.readUnits = round2(m.readUnits);
        }
      }
      console.error(`round ${r + 1}/${ROUNDS}: ${KINDS.map((k) => `${k.key} ${runs[k.key]!.base.server.at(-1)} → ${runs[k.key]!.now.server.at(-1)}`).join(', ')}`);
    }

    /** One server's figures for a kind: medians, its rounds, and what its log lines said. */
    const summary = (run: (typeof runs)[string]['base']) => ({
      serverMs: round2(median(run.server)),
      dynamoMs: round2(median(run.dynamo)),
      rounds: run.server,
      serverRawMs: round2(median(run.serverRaw)),
      idleServerMsPerS: round2(median(run.idleServer)),
      contentType: run.type,
      dynamodbRequests: run.dynamodbRequests,
      readUnits: run.readUnits,
    });
    const kinds: ReadKind[] = KINDS.map((k) => {
      const r = runs[k.key]!;
      return { key: k.key, label: k.label, base: summary(r.base), now: summary(r.now) };
    });
    const results = {
      generatedAt: new Date().toISOString(),
      ...runContext(),
      base,
      events: EVENTS,
      requests: REQUESTS,
      warmup: WARMUP,
      rounds: ROUNDS,
      kinds,
    };
    for (const k of kinds) {
      const side = (f: ReadKind['base']) =>
        `${f.serverMs} ms (DynamoDB Local ${f.dynamoMs} ms; ${f.dynamodbRequests} DynamoDB requests, ${f.readUnits} RCU; ${f.contentType.split(';')[0]})`;
      console.log(`${k.key.padEnd(10)} base ${side(k.base)}  now ${side(k.now)}`);
    }
    // The profile's last stretch is the reads: how long it was, for tools that look at the reads alone.
    if (PROFILE) await writeFile(join(PROFILE, 'reads-window.json'), `${JSON.stringify({ readsMs: Date.now() - measuredFrom })}\n`);
    else {
      await mkdir(dirname(RESULTS), { recursive: true });
      await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    }
    if (DEFAULT_RUN) {
      await writeTable('reads', renderReads(results));
    }
    return 0;
  } finally {
    for (const s of servers) s.child.kill('SIGINT');
    await Promise.all(servers.map((s) => new Promise((r) => (s.child.exitCode === null ? s.child.once('exit', r) : r(null)))));
    try {
      execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT, stdio: 'ignore' });
    } catch {
      // Left for `git worktree prune`.
    }
    rmSync(tmp, { recursive: true, force: true });
  }
}

runBench(main);
