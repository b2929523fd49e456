// `npm run bench:queries`: the cost of GET /events as the table grows (docs/design.md §4.2, the cost rules).
//
// For each size (BENCH_SIZES, default "1000,20000") it creates a fresh table, seeds reproducible
// data in en, lt and ru through the real create handlers (lib/local/demo-calendar.ts), then sends each list
// variant once in-process through the events.list handler with a clean capacity tally, and 15
// more times for a median latency and the process CPU time per request (process.cpuUsage around
// each call: the handler and the SDK; DynamoDB Local runs in its own process). Each search is also
// sent BENCH_CPU_REPS times alternating with the same page without search, and printed beside it
// (requests, read units, CPU per request, and the ratios: the target is 1.2x). It prints a table per size and a comparison of consumed read
// capacity between the smallest and the largest size, with the target of every variant:
// capacity at the large size <= 1.2 x capacity at the small size. Exit code 1 when a
// targeted variant misses it. The figures also go to bench/results/queries.json.
//
// The table's stream runs through the real consumer (the local poller), as `npm start` does: the
// search index it keeps is what `search` reads. After seeding, the bench waits until the consumer
// has caught up, and measures the index lag (a new event until a search finds it); the poller is
// paused while the variants are measured, so that its work is not counted. The searches have the
// same target as every other variant.
//
// Its settings are environment variables (`npm run bench:queries -- --help` lists them).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { resetConfig } from '#lib/runtime/config.js';
import { capacity, type CapacityTally } from '#lib/store/db.js';
import { benchCli } from './cli.js';
import { runBench } from './main.js';
import { ensureDevKeys, localAuthEnv, mintToken } from '#lib/local/dev-auth.js';
import { ensureTable, localClient, startDynamoLocal, type DynamoLocal } from '#lib/local/dynamo.js';
import { installLocalBus } from '#lib/local/bus.js';
import { startStreamPoller } from '#lib/local/stream.js';
import { formatTrace, installTrace, trace, type TraceEntry } from './trace.js';
import { renderQueries, runContext, writeTable } from './readme.js';
import { call, monthStart, planSeed, runSeed, type SeedIds, type SeedPlan, type SeedStats } from '#lib/local/demo-calendar.js';

const settings = benchCli(
  'bench:queries',
  `The cost of GET /events as the table grows (about an hour on two cores): seeds each size into a fresh
table through the real handlers, then measures one page of each list variant (DynamoDB requests,
consumed read capacity, median latency). Writes bench/results/queries.json and, when it compares
sizes, the table in bench/README.md; exits 1 when a variant reads more than 1.2 times as much at the largest
size as at the smallest.`,
  {
    BENCH_SIZES: { meaning: 'table sizes in events, separated by commas', default: '1000,20000' },
    BENCH_SEED: { meaning: 'seed of the generated calendar', default: 42 },
    BENCH_CONCURRENCY: { meaning: 'creates in flight while seeding', default: 8 },
    BENCH_REPS: { meaning: 'repetitions of each variant for its median latency', default: 15 },
    BENCH_CPU_REPS: { meaning: 'requests of each search, alternating with the page without search, for CPU per request', default: 40 },
    BENCH_KEEP_TABLES: { meaning: '1 keeps the tables (with DYNAMODB_ENDPOINT)' },
  },
);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = resolve(HERE, 'results', 'queries.json');
const TARGET_RATIO = 1.2;
const PER_PAGE = 9;
const SEARCH_WORD = 'jazz';
const SEARCH_PAIR = 'wheelchair accessible';

function intList(raw: string): number[] {
  const list = raw.split(',').map((s) => Number(s.trim()));
  if (!list.length || list.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`BENCH_SIZES must be positive integers separated by commas, got "${raw}"`);
  return list;
}

const SIZES = intList(settings.text('BENCH_SIZES')!);
const SEED = settings.count('BENCH_SEED');
const CONCURRENCY = settings.count('BENCH_CONCURRENCY');
const REPS = settings.count('BENCH_REPS');
const CPU_REPS = settings.count('BENCH_CPU_REPS');

// --- variants ------------------------------------------------------------------------------------

interface Variant {
  key: string;
  label: string;
  query: Record<string, string | number>;
  editor?: boolean;
  /** Done once before the variant is measured. */
  prepare?: (editorToken: string) => Promise<void>;
}

const two = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;

/** The index with the most planned en events (the busiest venue or organizer). */
function busiest(plan: SeedPlan, of: (e: SeedPlan['events'][number]) => number[]): number {
  const counts = new Map<number, number>();
  for (const e of plan.events) if (e.lang === 'en') for (const i of of(e)) counts.set(i, (counts.get(i) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
}

function variants(plan: SeedPlan, ids: SeedIds, now: Date): Variant[] {
  // Two whole months, starting at the first of the month after next.
  const dates = { start_date: ymd(monthStart(now, 2)), end_date: ymd(new Date(monthStart(now, 4).getTime() - 86_400_000)) };
  // One venue has too few events in two months of the smaller calendar to fill a page, and a
  // shorter page is not the same variant: six months fill it at both sizes.
  const halfYear = { start_date: dates.start_date, end_date: ymd(new Date(monthStart(now, 8).getTime() - 86_400_000)) };
  const category = ids.categories.en[0]!.slug; // the most popular en category
  const tag = ids.tags.en[0]!.slug; // the most popular en tag
  const venue = ids.venues.en[busiest(plan, (e) => [e.venue])]!;
  const organizer = ids.organizers.en[busiest(plan, (e) => e.organizers)]!;
  return [
    { key: 'default', label: 'default window', query: {} },
    { key: 'dates', label: 'date window (2 months)', query: { ...dates } },
    { key: 'category', label: 'category', query: { categories: category } },
    { key: 'tag', label: 'tag', query: { tags: tag } },
    { key: 'venue', label: 'venue', query: { venue } },
    { key: 'organizer', label: 'organizer', query: { organizer } },
    { key: 'featured', label: 'featured=true', query: { featured: 'true' } },
    { key: 'status-any', label: 'status=any (editor)', query: { status: 'any' }, editor: true },
    { key: 'category+dates', label: 'category + date window', query: { categories: category, ...dates } },
    { key: 'venue+6months', label: 'venue + date window (6 months)', query: { venue, ...halfYear } },
    { key: 'page3', label: 'page 3, default window', query: { page: 3 } },
    { key: 'search', label: `search "${SEARCH_WORD}"`, query: { search: SEARCH_WORD } },
    // A part of a word: the vocabulary names the words that contain it.
    { key: 'search-part', label: `search "${SEARCH_WORD.slice(1)}" (a word part)`, query: { search: SEARCH_WORD.slice(1) } },
    // Two words of one description sentence (a quarter of the events): a full page at both sizes,
    // so that both measure what finding a page costs (a rarer pair has fewer than a page at 1,000).
    { key: 'search-two', label: `search "${SEARCH_PAIR}" (two words)`, query: { search: SEARCH_PAIR } },
    {
      key: 'search-after-write',
      label: `search "${SEARCH_WORD}" right after a write`,
      query: { search: SEARCH_WORD },
      // The consumer is paused: the new event is found through the recent writes.
      prepare: async (editorToken) => {
        const day = ymd(monthStart(now, 1));
        const made = await call('POST', 'en', '/events', {
          token: editorToken,
          body: { title: `Fresh ${SEARCH_WORD} benefit`, start_date: `${day} 10:00:00`, end_date: `${day} 11:00:00` },
        });
        if (made.status !== 201) throw new Error(`create before a search -> ${made.status}`);
      },
    },
  ];
}

// --- measuring -----------------------------------------------------------------------------------

interface Measured {
  key: string;
  label: string;
  query: string;
  status: number;
  total: number | null;
  returned: number;
  requests: number;
  read: number;
  write: number;
  commands: Record<string, number>;
  /** Whether every repetition consumed the same capacity as the measured request. */
  stable: boolean;
  latencyMs: { median: number; min: number; max: number };
  /** Every store call of the measured request, with what it read and consumed. */
  calls: TraceEntry[];
  /** Process CPU time (user + system) per request, the mean of the latency repetitions. */
  cpuMs: number;
  /** A search beside the same page without search (`search*` variants). */
  vsList?: VsList;
}

/**
 * A search and the same page without search, sent alternately CPU_REPS times each (so that the
 * machine's load falls on both): CPU per request (the mean), requests and read units, and the ratios.
 */
interface VsList {
  cpuMs: number;
  listCpuMs: number;
  listRequests: number;
  listRead: number;
  cpuRatio: number;
  requestRatio: number;
  readRatio: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const queryString = (q: Record<string, string | number>) => new URLSearchParams(Object.entries(q).map(([k, x]): [string, string] => [k, String(x)])).toString();
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

/** One request's process CPU time (user + system, ms: the handler and the SDK in this process; DynamoDB Local runs in its own). */
async function timed<T>(send: () => Promise<T>): Promise<{ res: T; cpuMs: number }> {
  const before = process.cpuUsage();
  const res = await send();
  const used = process.cpuUsage(before);
  return { res, cpuMs: (used.user + used.system) / 1000 };
}

/** The search `send` against the page without search (`list`), alternating. */
async function besideList(send: () => Promise<unknown>, list: () => Promise<unknown>, cost: CapacityTally): Promise<VsList> {
  await list();
  const [mine, theirs]: number[][] = [[], []];
  // The page's cost: the median request (a term kept a few seconds is read again now and then).
  const tallies: CapacityTally[] = [];
  for (let i = 0; i < CPU_REPS; i++) {
    mine.push((await timed(send)).cpuMs);
    capacity.reset();
    theirs.push((await timed(list)).cpuMs);
    tallies.push(capacity.snapshot());
  }
  const base = { requests: median(tallies.map((t) => t.requests)), read: median(tallies.map((t) => t.read)) };
  const [cpuMs, listCpuMs] = [mean(mine), mean(theirs)];
  return {
    cpuMs: round(cpuMs),
    listCpuMs: round(listCpuMs),
    listRequests: base.requests,
    listRead: round(base.read, 4),
    cpuRatio: round(cpuMs / listCpuMs),
    requestRatio: round(cost.requests / base.requests),
    readRatio: round(cost.read / base.read),
  };
}

async function measure(v: Variant, editorToken: string): Promise<Measured> {
  const query = { per_page: PER_PAGE, ...v.query };
  const send = () => call('GET', 'en', '/events', { query, token: v.editor ? editorToken : undefined });
  await v.prepare?.(editorToken);
  await send(); // warm-up: module loading, token verification caches, connections
  capacity.reset();
  trace.reset();
  const res = await send();
  const cost: CapacityTally = capacity.snapshot();
  const calls = trace.snapshot();
  if (res.status !== 200) throw new Error(`GET /events?${queryString(query)} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
  const times: number[] = [];
  const cpu: number[] = [];
  let stable = true;
  for (let i = 0; i < REPS; i++) {
    capacity.reset();
    const t = performance.now();
    cpu.push((await timed(send)).cpuMs);
    times.push(performance.now() - t);
    const again = capacity.snapshot();
    if (again.requests !== cost.requests || round(again.read, 4) !== round(cost.read, 4)) stable = false;
  }
  const list = () => call('GET', 'en', '/events', { query: { per_page: PER_PAGE } });
  const vsList = v.key.startsWith('search') ? await besideList(send, list, cost) : undefined;
  return {
    key: v.key,
    label: v.label,
    query: queryString(query),
    status: res.status,
    total: typeof res.body?.total === 'number' ? res.body.total : null,
    returned: Array.isArray(res.body?.events) ? res.body.events.length : 0,
    requests: cost.requests,
    read: round(cost.read, 4),
    write: round(cost.write, 4),
    commands: cost.commands,
    stable,
    latencyMs: { median: round(median(times), 1), min: round(Math.min(...times), 1), max: round(Math.max(...times), 1) },
    cpuMs: round(mean(cpu)),
    ...(vsList ? { vsList } : {}),
    calls: [...calls].sort((a, b) => a.command.localeCompare(b.command) || a.target.localeCompare(b.target) || (a.select ?? '').localeCompare(b.select ?? '')),
  };
}

// --- printing ------------------------------------------------------------------------------------

function table(head: string[], rows: (string | number)[][], right: boolean[]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

const commandsText = (c: Record<string, number>) =>
  Object.entries(c)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k.replace(/Command$/, '')}×${n}`)
    .join(' ');
const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const thousands = (n: number) => n.toLocaleString('en-US');

function sizeTable(size: number, stats: SeedStats, rows: Measured[]): string {
  const title = `== ${thousands(size)} events: ${stats.venues} venues, ${stats.organizers} organizers, ${stats.categories} categories, ${stats.tags} tags; events seeded in ${stats.eventSeconds.toFixed(1)} s (${stats.eventsPerSecond.toFixed(0)}/s), setup ${stats.setupSeconds.toFixed(1)} s, ${stats.retries} retries ==`;
  return `${title}\n${table(
    ['variant', 'total', 'shown', 'requests', 'read RCU', 'commands', 'p50 ms', 'CPU ms', 'query'],
    rows.map((r) => [
      r.label,
      r.total ?? '-',
      r.returned,
      r.requests,
      fmt(r.read) + (r.stable ? '' : '*'),
      commandsText(r.commands),
      r.latencyMs.median.toFixed(1),
      r.cpuMs.toFixed(1),
      r.query,
    ]),
    [false, true, true, true, true, false, true, true, false],
  )}`;
}

/** Each search beside the same page without search: requests, read units and CPU per request, with the ratios and the target. */
function searchTable(rows: Measured[]): string {
  const searches = rows.filter((r) => r.vsList);
  const within = (x: number) => (x <= TARGET_RATIO + 1e-9 ? '' : ' !');
  return `search vs the same page without search (CPU: mean of ${CPU_REPS} requests each, alternating; target <= ${TARGET_RATIO}x; ! = over)\n${table(
    ['variant', 'requests', 'list', 'ratio', 'read RCU', 'list', 'ratio', 'CPU ms', 'list', 'ratio'],
    searches.map((r) => {
      const c = r.vsList!;
      return [
        r.label,
        r.requests,
        c.listRequests,
        `${c.requestRatio.toFixed(2)}x${within(c.requestRatio)}`,
        fmt(r.read),
        fmt(c.listRead),
        `${c.readRatio.toFixed(2)}x${within(c.readRatio)}`,
        c.cpuMs.toFixed(2),
        c.listCpuMs.toFixed(2),
        `${c.cpuRatio.toFixed(2)}x${within(c.cpuRatio)}`,
      ];
    }),
    [false, true, true, true, true, true, true, true, true, true],
  )}`;
}

interface Compared {
  key: string;
  label: string;
  small: { requests: number; read: number; shown: number };
  large: { requests: number; read: number; shown: number };
  ratio: number;
  target: string;
  verdict: 'PASS' | 'FAIL';
  /** Caveats, e.g. a page that is not full at the small size (it then reads fewer records). */
  note: string;
}

function compare(small: Measured[], large: Measured[]): Compared[] {
  return small.map((s) => {
    const l = large.find((x) => x.key === s.key)!;
    const ratio = s.read > 0 ? l.read / s.read : l.read > 0 ? Infinity : 1;
    return {
      key: s.key,
      label: s.label,
      small: { requests: s.requests, read: s.read, shown: s.returned },
      large: { requests: l.requests, read: l.read, shown: l.returned },
      ratio: round(ratio, 3),
      target: `<= ${TARGET_RATIO}x`,
      verdict: ratio <= TARGET_RATIO + 1e-9 ? 'PASS' : 'FAIL',
      note: s.returned < l.returned ? `small page shows ${s.returned} of ${l.returned}` : '',
    };
  });
}

// --- main ----------------------------------------------------------------------------------------

interface SizeResult {
  size: number;
  table: string;
  seed: SeedStats;
  /** The stream consumer: how long it took to catch up after seeding, and the search index lag. */
  stream: { drainSeconds: number; lagMs: { median: number; p95: number; max: number; samples: number } };
  variants: Measured[];
}

const LAG_SAMPLES = 10;

/** Time from a new event's create until a search for its own word finds it, LAG_SAMPLES times. */
async function searchLag(editorToken: string, now: Date): Promise<SizeResult['stream']['lagMs']> {
  const lags: number[] = [];
  const day = ymd(monthStart(now, 3));
  for (let i = 0; i < LAG_SAMPLES; i++) {
    const word = `lagprobe${Date.now().toString(36)}${i}`;
    const started = performance.now();
    const made = await call('POST', 'en', '/events', { token: editorToken, body: { title: `Lag ${word}`, start_date: `${day} 10:00:00`, end_date: `${day} 11:00:00` } });
    if (made.status !== 201) throw new Error(`lag probe create -> ${made.status}`);
    for (;;) {
      const found = await call('GET', 'en', '/events', { query: { search: word } });
      if (found.body?.total === 1) break;
      if (performance.now() - started > 60_000) throw new Error(`the search index did not show ${word} within 60 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
    lags.push(performance.now() - started);
  }
  const sorted = [...lags].sort((a, b) => a - b);
  return { median: round(median(lags), 1), p95: round(sorted[Math.ceil(0.95 * sorted.length) - 1]!, 1), max: round(sorted.at(-1)!, 1), samples: lags.length };
}

async function main(): Promise<number> {
  const runStart = performance.now();
  const keys = await ensureDevKeys('.local');
  Object.assign(process.env, localAuthEnv(keys));
  process.env.SITE_URL ||= 'http://127.0.0.1:3000';
  resetConfig();

  // Each size gets a DynamoDB Local of its own: one holding a finished size's table and stream
  // records was measured creating records twenty times slower.
  const external = process.env.DYNAMODB_ENDPOINT || undefined;
  let dynamo: DynamoLocal | undefined;
  let endpoint = external ?? '';
  // The change feed goes to the in-process bus, as under `npm start`.
  installLocalBus();
  console.error(`DynamoDB: ${external ?? 'a new in-memory DynamoDB Local for each size'}; sizes ${SIZES.join(', ')}; seed ${SEED}; concurrency ${CONCURRENCY}`);

  const editorToken = await mintToken(keys, { role: 'editor', sub: 'bench-editor', ttl: '12h' });
  const now = new Date();
  const results: SizeResult[] = [];
  try {
    for (const size of SIZES) {
      const tableName = `bench-queries-${size}-${Date.now().toString(36)}`;
      if (!external) {
        await dynamo?.stop();
        dynamo = await startDynamoLocal();
        endpoint = process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
      }
      process.env.TABLE_NAME = tableName;
      resetConfig();
      // On the client of this size's DynamoDB (a new endpoint makes a new client).
      installTrace();
      await ensureTable(tableName);
      console.error(`\n${thousands(size)} events -> table ${tableName}`);
      const poller = await startStreamPoller({ tableName, endpoint, logWriter: () => {}, log: (line) => console.error(`[stream] ${line}`) });
      let stream: SizeResult['stream'];
      const rows: Measured[] = [];
      let seeded: SeedStats;
      try {
        const plan = planSeed(size, SEED, now);
        // The consumer waits while the handlers seed, so that its index writes do not slow the
        // creates down; then it works through the whole backlog, which is timed.
        await poller.pause();
        const { ids, stats } = await runSeed(plan, editorToken, CONCURRENCY);
        seeded = stats;
        poller.resume();
        const drainStart = performance.now();
        await poller.drain(3 * 60 * 60_000);
        const drainSeconds = round((performance.now() - drainStart) / 1000, 1);
        console.error(`the stream consumer caught up ${drainSeconds} s after seeding; measuring the search index lag…`);
        const lagMs = await searchLag(editorToken, now);
        stream = { drainSeconds, lagMs };
        await poller.drain(60_000);
        await poller.pause();
        console.error(`measuring ${REPS + 2} requests per variant…`);
        for (const v of variants(plan, ids, now)) rows.push(await measure(v, editorToken));
        if (poller.deadLetters.length) throw new Error(`${poller.deadLetters.length} stream records failed`);
      } finally {
        await poller.stop();
      }
      const text = `${sizeTable(size, seeded, rows)}\n\n${searchTable(rows)}`;
      console.log(`\n${text}\nsearch index: caught up ${stream.drainSeconds} s after seeding; lag median ${stream.lagMs.median} ms, p95 ${stream.lagMs.p95} ms`);
      results.push({ size, table: tableName, seed: seeded, stream, variants: rows });
      if (process.env.BENCH_KEEP_TABLES !== '1') {
        const client = localClient(endpoint);
        try {
          await client.send(new DeleteTableCommand({ TableName: tableName }));
        } finally {
          client.destroy();
        }
      }
    }
  } finally {
    await dynamo?.stop();
  }

  let comparison: Compared[] = [];
  let failed: Compared[] = [];
  const sorted = [...results].sort((a, b) => a.size - b.size);
  const small = sorted[0];
  const large = sorted[sorted.length - 1];
  if (small && large && small !== large) {
    comparison = compare(small.variants, large.variants);
    failed = comparison.filter((c) => c.verdict === 'FAIL');
    const s = thousands(small.size);
    const l = thousands(large.size);
    console.log(`\n== read capacity, ${l} vs ${s} events (target: ${l} <= ${TARGET_RATIO} x ${s}) ==`);
    console.log(
      table(
        ['variant', `shown ${s}`, `shown ${l}`, `req ${s}`, `req ${l}`, `RCU ${s}`, `RCU ${l}`, `ratio ${l}/${s}`, 'target', 'result', 'note'],
        comparison.map((c) => [
          c.label,
          c.small.shown,
          c.large.shown,
          c.small.requests,
          c.large.requests,
          fmt(c.small.read),
          fmt(c.large.read),
          `${c.ratio.toFixed(2)}x`,
          c.target,
          c.verdict,
          c.note,
        ]),
        [false, true, true, true, true, true, true, true, false, false, false],
      ),
    );
    // Where the capacity of each variant that missed the target went, call by call.
    for (const f of failed) {
      const sv = small.variants.find((v) => v.key === f.key)!;
      const lv = large.variants.find((v) => v.key === f.key)!;
      console.log(`\n-- ${f.label}: store calls at ${s} events (${fmt(sv.read)} RCU) --`);
      for (const line of formatTrace(sv.calls)) console.log(`   ${line}`);
      console.log(`-- ${f.label}: store calls at ${l} events (${fmt(lv.read)} RCU) --`);
      for (const line of formatTrace(lv.calls)) console.log(`   ${line}`);
    }
  }
  const totalSeconds = (performance.now() - runStart) / 1000;
  if (results.some((r) => r.variants.some((v) => !v.stable))) console.log('\n* the repetitions did not all consume the same capacity as the measured request');
  console.log(
    `\nTotal time ${totalSeconds.toFixed(1)} s.${failed.length ? ` FAIL: ${failed.map((f) => f.label).join(', ')}.` : comparison.length ? ' All targeted variants PASS.' : ''}`,
  );

  await mkdir(dirname(RESULTS), { recursive: true });
  const saved = {
    generatedAt: new Date().toISOString(),
    ...runContext(),
    plannedAt: now.toISOString(),
    seed: SEED,
    concurrency: CONCURRENCY,
    repetitions: REPS,
    perPage: PER_PAGE,
    lang: 'en',
    endpoint: external ?? 'in-memory DynamoDB Local, one per size',
    targetRatio: TARGET_RATIO,
    totalSeconds: round(totalSeconds, 1),
    sizes: results,
    comparison,
    pass: failed.length === 0,
  };
  await writeFile(RESULTS, `${JSON.stringify(saved, null, 2)}\n`);
  console.error(`Wrote ${RESULTS}`);
  // A run that compares sizes is what bench/README.md shows (its sizes are in the table's head).
  if (results.length > 1) {
    await writeTable('queries', renderQueries(saved));
    console.error('Updated the table in bench/README.md.');
  }
  return failed.length ? 1 : 0;
}

runBench(main);
