// `npm run bench:search`: what a search costs beside the same page without one.
//
// For each size (BENCH_SIZES, default "1000,20000") it seeds a table through the real create
// handlers (lib/local/demo-calendar.ts), builds the search index with the backfill (the batched
// form of what the stream consumer writes) and clears the recent writes the consumer would have
// cleared. Then it sends GET /events?per_page=9 and each search variant (one word, a word part,
// two words, one word right after a write) in turn, BENCH_REPS times each, through the
// events.list handler in this process, and records per request the process's CPU time
// (process.cpuUsage around the handler call: user + system) and the DynamoDB requests. The
// target: a search costs at most 1.2 times the CPU and the requests of the page without search.
// The figures go to bench/results/search.json.
//
// BENCH_TABLES reuses tables seeded by an earlier run (`1000=bench-search-1000-…,20000=…`, with
// DYNAMODB_ENDPOINT naming the DynamoDB Local that holds them); BENCH_SEED_ONLY=1 seeds, prints
// the tables and stops, so that a long seeding can be done once.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BatchWriteCommand, DeleteCommand, QueryCommand, ScanCommand, TransactWriteCommand, UpdateCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { EventItem } from '#lib/store/items.js';
import { eventTransaction } from '#lib/logic/event-writes.js';
import { resetConfig } from '#lib/runtime/config.js';
import { capacity } from '#lib/store/db.js';
import { db } from '#lib/store/db.js';
import { getItem } from '#lib/store/reads.js';
import { bucketOf, keys, listKeys, RECENT_SHARDS, recentPartition } from '#lib/store/keys.js';
import { backfillSearch } from '#lib/stream/backfill.js';
import { ensureDevKeys, localAuthEnv, mintToken } from '#lib/local/dev-auth.js';
import { ensureTable, startDynamoLocal, type DynamoLocal } from '#lib/local/dynamo.js';
import { installLocalBus } from '#lib/local/bus.js';
import { BENCH_LANGS, call, monthStart, planSeed, runSeed } from '#lib/local/demo-calendar.js';
import { benchCli } from './cli.js';
import { runBench } from './main.js';
import { runContext } from './readme.js';
import { pool } from '#lib/runtime/pool.js';

const settings = benchCli(
  'bench:search',
  `What a search of GET /events costs beside the same page without search (server CPU per request and
DynamoDB requests), at each size. Writes bench/results/search.json; exits 1 when a search costs more
than 1.2 times the page without search.`,
  {
    BENCH_SIZES: { meaning: 'table sizes in events, separated by commas', default: '1000,20000' },
    BENCH_SEED: { meaning: 'seed of the generated calendar', default: 42 },
    BENCH_CONCURRENCY: { meaning: 'creates in flight while seeding', default: 8 },
    BENCH_REPS: { meaning: 'requests of each variant measured', default: 60 },
    BENCH_TABLES: { meaning: 'size=table pairs of tables seeded before (with DYNAMODB_ENDPOINT)' },
    BENCH_SEED_ONLY: { meaning: '1 seeds the tables and stops (with DYNAMODB_ENDPOINT)' },
    BENCH_CLONE: { meaning: '1 makes each larger size from the smallest: copies of its events under new ids and slugs' },
  },
);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = resolve(HERE, 'results', 'search.json');
const TARGET_RATIO = 1.2;
const PER_PAGE = 9;
const SIZES = settings
  .text('BENCH_SIZES')!
  .split(',')
  .map((s) => Number(s.trim()));
const REPS = settings.count('BENCH_REPS');
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Variant {
  key: string;
  query: Record<string, string | number>;
  /** Done once before the variant is measured; its return undoes it after. */
  prepare?: () => Promise<() => Promise<void>>;
}

/** Removes what the consumer would have removed: the recent-write items of every language. */
async function clearRecent(): Promise<number> {
  let n = 0;
  for (const lang of BENCH_LANGS)
    for (let k = 0; k < RECENT_SHARDS; k++) {
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db().send(
          new QueryCommand({
            TableName: process.env.TABLE_NAME,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': recentPartition(lang, k) },
            ExclusiveStartKey: start,
          }),
        );
        // The vocabulary versions stay (lib/store/recent-writes.ts).
        for (const item of (out.Items ?? []).filter((i) => i.id !== undefined))
          await db().send(new DeleteCommand({ TableName: process.env.TABLE_NAME, Key: { pk: item.pk, sk: item.sk } })), n++;
        start = out.LastEvaluatedKey;
      } while (start);
    }
  return n;
}

async function seed(size: number, token: string, now: Date, cloneOf?: string): Promise<string> {
  const table = `bench-search-${size}-${Date.now().toString(36)}`;
  process.env.TABLE_NAME = table;
  resetConfig();
  await ensureTable(table, undefined, { stream: false });
  const started = performance.now();
  if (cloneOf) await cloneInto(cloneOf, size);
  else await runSeed(planSeed(size, settings.count('BENCH_SEED'), now), token, settings.count('BENCH_CONCURRENCY'));
  const seeded = performance.now();
  // Copies carry their index entries already.
  const { events } = cloneOf ? { events: 0 } : await backfillSearch();
  const cleared = await clearRecent();
  console.error(
    `${size}: seeded in ${round((seeded - started) / 1000, 1)} s, indexed ${events} events in ${round((performance.now() - seeded) / 1000, 1)} s, ${cleared} recent writes cleared`,
  );
  return table;
}

/**
 * Fills the current table up to `size` events with copies of `from`'s events (new ids and slugs,
 * the same texts, times and links), each written with the transaction a create writes, and the
 * source's search index entries and their counts copied for it (the same words). Much faster
 * than the handlers and the backfill on a busy machine, and the same items.
 */
async function cloneInto(from: string, size: number): Promise<void> {
  const table = process.env.TABLE_NAME!;
  const source: EventItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await db().send(
      new ScanCommand({
        TableName: from,
        FilterExpression: 'sk = :post AND kind = :event',
        ExpressionAttributeValues: { ':post': 'POST', ':event': 'event' },
        ExclusiveStartKey: start,
      }),
    );
    source.push(...((page.Items ?? []) as EventItem[]));
    start = page.LastEvaluatedKey;
  } while (start);
  // Every other item (places, terms, counters) as it is.
  do {
    const page: ScanCommandOutput = await db().send(new ScanCommand({ TableName: from, ExclusiveStartKey: start }));
    const items = page.Items ?? [];
    for (let i = 0; i < items.length; i += 25) {
      let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length) {
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
        pending = (out.UnprocessedItems?.[table] ?? []) as typeof pending;
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  // Each source event's search index entries, copied with each copy's id.
  const words = new Map<number, Record<string, unknown>[]>();
  for (const e of source) {
    const out = await db().send(new QueryCommand({ TableName: from, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.word(e.id, '').pk } }));
    words.set(e.id, out.Items ?? []);
  }
  const started = performance.now();
  const copies = Array.from({ length: size - source.length }, (_, i) => i);
  const buckets = new Map<string, { key: { pk: string; sk: string }; days: Map<string, Set<number>> }>();
  await pool(copies, 8, async (i) => {
    const e = source[i % source.length]!;
    const id = 50_000_000 + i;
    // Its own key: with the source's, the record's put is refused (it exists) and no copy is written.
    const copy: EventItem = { ...e, ...keys.post(id), id, slug: `${e.slug}-c${i}` };
    for (let attempt = 0; ; attempt++) {
      try {
        await db().send(new TransactWriteCommand({ TransactItems: eventTransaction(undefined, copy, table).items }));
        break;
      } catch (err) {
        // A retry of a write that landed after all: the copy's record is there.
        const refused = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed';
        if (refused && (await getItem(keys.post(id)))) break;
        if (attempt > 20) throw err;
        await new Promise((r) => setTimeout(r, 20 * (attempt + 1)));
      }
    }
    const entries = words
      .get(e.id)!
      .map((w): Record<string, unknown> => ({ ...w, pk: keys.word(id, '').pk, id, eventId: id, gsi2sk: listKeys.event(e.lang, e.status, e.utcStart, id).gsi2sk }));
    for (let k = 0; k < entries.length; k += 25) {
      let pending = entries.slice(k, k + 25).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length) {
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
        pending = (out.UnprocessedItems?.[table] ?? []) as typeof pending;
      }
    }
    for (const w of entries) {
      const { key, day } = bucketOf(String(w.gsi2pk), String(w.utcStart));
      const b = buckets.get(`${key.pk}|${key.sk}`) ?? { key, days: new Map<string, Set<number>>() };
      buckets.set(`${key.pk}|${key.sk}`, b);
      b.days.set(day, (b.days.get(day) ?? new Set<number>()).add(id));
    }
    if (i % 1000 === 0) console.error(`  ${i} copies, ${round((performance.now() - started) / 1000, 1)} s`);
  });
  // The search index's count buckets: each bucket once, with every copy's id.
  await pool([...buckets.values()], 8, async (b) => {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const adds = [...b.days].map(([day, ids], n) => ((names[`#d${n}`] = day), (values[`:d${n}`] = ids), `#d${n} :d${n}`));
    await db().send(
      new UpdateCommand({ TableName: table, Key: b.key, UpdateExpression: `ADD ${adds.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values }),
    );
  });
}

interface Sample {
  cpuMs: number;
  requests: number;
  read: number;
}

async function once(query: Record<string, string | number>): Promise<Sample & { total: number; shown: number }> {
  capacity.reset();
  const before = process.cpuUsage();
  const res = await call('GET', 'en', '/events', { query: { per_page: PER_PAGE, ...query } });
  const cpu = process.cpuUsage(before);
  const cost = capacity.snapshot();
  if (res.status !== 200) throw new Error(`GET /events?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))} -> ${res.status}`);
  return { cpuMs: (cpu.user + cpu.system) / 1000, requests: cost.requests, read: cost.read, total: res.body.total, shown: res.body.events.length };
}

interface Row {
  key: string;
  query: string;
  total: number;
  shown: number;
  cpuMs: { median: number; p25: number; p75: number };
  requests: number;
  read: number;
  /** Against the page without search, measured in the same rounds. */
  cpuRatio: number;
  requestRatio: number;
}

async function measureSize(token: string, now: Date): Promise<Row[]> {
  const day = monthStart(now, 1).toISOString().slice(0, 10);
  const list: Variant = { key: 'list', query: {} };
  const variants: Variant[] = [
    list,
    { key: 'search-word', query: { search: 'jazz' } },
    { key: 'search-part', query: { search: 'azz' } },
    { key: 'search-two', query: { search: 'wheelchair accessible' } },
    {
      key: 'search-after-write',
      query: { search: 'jazz' },
      // No consumer runs: the new event stays a recent write while the variant is measured.
      prepare: async () => {
        const made = await call('POST', 'en', '/events', { token, body: { title: 'Fresh jazz benefit', start_date: `${day} 10:00:00`, end_date: `${day} 11:00:00` } });
        if (made.status !== 201) throw new Error(`create before a search -> ${made.status}`);
        return async () => {
          await call('DELETE', 'en', `/events/${made.body.id}`, { token, query: { force: 'true' } });
          await clearRecent();
        };
      },
    },
  ];
  const rows: Row[] = [];
  for (const v of variants) {
    const undo = await v.prepare?.();
    // Warm-up: modules, connections, caches a warm function has.
    for (let i = 0; i < 3; i++) await once(v.query), await once(list.query);
    const mine: Sample[] = [];
    const base: Sample[] = [];
    let last: Awaited<ReturnType<typeof once>> | undefined;
    // The variant and the page without search alternate, so that the machine's load falls on both,
    // each going first in every other pair: the second of a pair costs less (the list measured
    // against itself one way round gave 1.16 and 1.2).
    for (let i = 0; i < REPS; i++) {
      if (i % 2) base.push(await once(list.query));
      mine.push((last = await once(v.query)));
      if (!(i % 2)) base.push(await once(list.query));
    }
    await undo?.();
    const cpu = mine.map((s) => s.cpuMs).sort((a, b) => a - b);
    const q = (p: number) => round(cpu[Math.min(cpu.length - 1, Math.floor(p * cpu.length))]!, 2);
    const baseCpu = median(base.map((s) => s.cpuMs));
    rows.push({
      key: v.key,
      query: new URLSearchParams(Object.entries({ per_page: PER_PAGE, ...v.query }).map(([k, x]): [string, string] => [k, String(x)])).toString(),
      total: last!.total,
      shown: last!.shown,
      cpuMs: { median: round(median(cpu), 2), p25: q(0.25), p75: q(0.75) },
      requests: last!.requests,
      read: round(last!.read, 2),
      cpuRatio: round(median(cpu) / baseCpu, 2),
      requestRatio: round(last!.requests / base.at(-1)!.requests, 2),
    });
    const r = rows.at(-1)!;
    console.log(
      `${r.key.padEnd(20)} total ${String(r.total).padStart(5)} shown ${r.shown}  cpu ${r.cpuMs.median.toFixed(2)} ms (${r.cpuRatio}x)  requests ${r.requests} (${r.requestRatio}x)  RCU ${r.read}`,
    );
  }
  return rows;
}

async function main(): Promise<number> {
  const started = performance.now();
  const keys = await ensureDevKeys('.local');
  Object.assign(process.env, localAuthEnv(keys));
  process.env.SITE_URL ||= 'http://127.0.0.1:3000';
  resetConfig();
  installLocalBus();
  const token = await mintToken(keys, { role: 'editor', sub: 'bench-editor', ttl: '12h' });
  const given = new Map(
    (settings.text('BENCH_TABLES') ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string])
      .map(([size, table]) => [Number(size), table]),
  );
  const now = new Date();
  const external = process.env.DYNAMODB_ENDPOINT || undefined;
  const sizes: { size: number; table: string; rows: Row[] }[] = [];
  let dynamo: DynamoLocal | undefined;
  let seededFirst: string | undefined;
  try {
    for (const size of SIZES) {
      // Copies are made within one DynamoDB Local.
      if (!external && !(dynamo && settings.text('BENCH_CLONE') === '1')) {
        await dynamo?.stop();
        dynamo = await startDynamoLocal();
        process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
      }
      const cloneOf = settings.text('BENCH_CLONE') === '1' && size !== SIZES[0] ? (given.get(SIZES[0]!) ?? sizes[0]?.table ?? seededFirst) : undefined;
      const table = given.get(size) ?? (await seed(size, token, now, cloneOf));
      seededFirst ??= table;
      if (settings.text('BENCH_SEED_ONLY') === '1') {
        console.log(`${size}=${table}`);
        continue;
      }
      process.env.TABLE_NAME = table;
      resetConfig();
      console.log(`\n== ${size.toLocaleString('en-US')} events (${table}) ==`);
      sizes.push({ size, table, rows: await measureSize(token, now) });
    }
  } finally {
    await dynamo?.stop();
  }
  if (!sizes.length) return 0;
  const failed = sizes.flatMap((s) => s.rows.filter((r) => r.key !== 'list' && (r.cpuRatio > TARGET_RATIO || r.requestRatio > TARGET_RATIO)).map((r) => `${s.size} ${r.key}`));
  await mkdir(dirname(RESULTS), { recursive: true });
  const saved = {
    generatedAt: new Date().toISOString(),
    ...runContext(),
    repetitions: REPS,
    perPage: PER_PAGE,
    lang: 'en',
    caller: 'anonymous',
    cpu: 'process.cpuUsage (user + system) around each in-process handler call; DynamoDB Local runs in its own process',
    endpoint: external ?? 'in-memory DynamoDB Local, one per size',
    targetRatio: TARGET_RATIO,
    totalSeconds: round((performance.now() - started) / 1000, 1),
    sizes,
    failed,
  };
  await writeFile(RESULTS, `${JSON.stringify(saved, null, 2)}\n`);
  console.log(`\n${failed.length ? `Above ${TARGET_RATIO}x: ${failed.join(', ')}` : `Every search within ${TARGET_RATIO}x`}. Wrote ${RESULTS}`);
  return failed.length ? 1 : 0;
}

runBench(main);
