// `npm run bench:ical`: what a calendar feed of 1,000 events costs as the table grows.
//
// Seeds BENCH_SIZES events (default "1000,20000", one table growing from one size to the next) in
// `en`: the first size through the real create handler (a third of them linked to one of a few
// venues, organizers and categories), the rest, which only make the table larger, as the items the
// create transaction writes (eventTransaction), in batches, so that the run stays short. Events
// are spread over the list's default window (two years from tomorrow). At each size it sends `GET /events?ical=1` (anonymous, the default window; the feed
// holds the soonest ICAL_MAX_EVENTS = 1,000 events) and the same for one category, once with a
// clean capacity tally (DynamoDB requests and read units) and BENCH_REPS more times for a median
// latency, through the real handler in this process. Writes bench/results/ical.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#lib/runtime/config.js';
import { wallToUtc } from '#lib/domain/time/dates.js';
import { capacity, db } from '#lib/store/db.js';
import { nextId } from '#lib/store/ids.js';
import { durationBound } from '#lib/store/stats.js';
import type { EventItem } from '#lib/store/items.js';
import { eventRecord } from '#lib/docs/record-samples.js';
import { indexed } from '#lib/logic/common.js';
import { eventTransaction } from '#lib/logic/event-writes.js';
import { mintToken } from '#lib/local/dev-auth.js';
import { call } from '#lib/local/demo-calendar.js';
import { benchCli } from './cli.js';
import { benchTable, runBench } from './main.js';
import { runContext } from './readme.js';
import { pool } from '#lib/runtime/pool.js';

const settings = benchCli(
  'bench:ical',
  `What GET /events?ical=1 costs as the table grows (a few minutes): seeds the sizes in one table through
the real create handler, then measures the feed of the soonest 1,000 events, and of one category
(DynamoDB requests, read units, median latency, size). Writes bench/results/ical.json.`,
  {
    BENCH_SIZES: { meaning: 'table sizes in events, separated by commas, ascending', default: '1000,20000' },
    BENCH_CONCURRENCY: { meaning: 'creates in flight while seeding', default: 16 },
    BENCH_REPS: { meaning: 'repetitions of each feed for its median latency', default: 5 },
  },
);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), 'results', 'ical.json');
const SIZES = settings
  .text('BENCH_SIZES')!
  .split(',')
  .map((s) => Number(s.trim()));
if (SIZES.some((n, i) => !Number.isInteger(n) || n < 1 || (i > 0 && n <= SIZES[i - 1]!))) throw new Error('BENCH_SIZES must be ascending positive integers');
const CONCURRENCY = settings.count('BENCH_CONCURRENCY');
const REPS = settings.count('BENCH_REPS');

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const two = (n: number) => String(n).padStart(2, '0');

interface Links {
  venues: number[];
  organizers: number[];
  categories: string[];
}

/** Event i's day and hours: `perDay` events a day from tomorrow on, a few hours apart. */
function when(i: number, perDay: number): { start: string; end: string } {
  const day = new Date(Date.now() + (1 + Math.floor(i / perDay)) * 86_400_000);
  const hour = (8 + (i % perDay) * Math.max(1, Math.floor(12 / perDay))) % 24;
  const date = `${day.getUTCFullYear()}-${two(day.getUTCMonth() + 1)}-${two(day.getUTCDate())}`;
  return { start: `${date} ${two(hour)}:00:00`, end: `${date} ${two(hour)}:45:00` };
}

/** Events `from` to `to` - 1 through the create handler; every third is linked. */
async function seed(from: number, to: number, perDay: number, links: Links, token: string): Promise<number> {
  const t = performance.now();
  await pool(
    Array.from({ length: to - from }, (_, k) => from + k),
    CONCURRENCY,
    async (i) => {
      const { start, end } = when(i, perDay);
      const linked =
        i % 3 === 0
          ? {
              venue: links.venues[i % links.venues.length],
              organizer: [links.organizers[i % links.organizers.length]],
              categories: [links.categories[i % links.categories.length]],
            }
          : {};
      const body = {
        title: `Event ${i}: talk, music & more`,
        description: `<p>Event number ${i}, with a paragraph; and another line of text about it.</p>`,
        start_date: start,
        end_date: end,
        ...linked,
      };
      const res = await call('POST', 'en', '/events', { body, token });
      if (res.status !== 201) throw new Error(`create ${i}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    },
  );
  return (performance.now() - t) / 1000;
}

/**
 * Events `from` to `to` - 1 as the items a create writes (record, slug guard, list index items,
 * count buckets), without links: puts in batches of 25, the bucket updates one by one.
 */
async function fill(from: number, to: number, perDay: number): Promise<number> {
  const t = performance.now();
  const table = config().tableName;
  const bound = await durationBound('en', 45 * 60);
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const puts: Record<string, unknown>[] = [];
  const updates: NonNullable<ReturnType<typeof eventTransaction>['items'][number]['Update']>[] = [];
  for (let i = from; i < to; i++) {
    const id = await nextId('post');
    const { start, end } = when(i, perDay);
    const event: EventItem = indexed(
      eventRecord({
        id,
        slug: `event-${i}`,
        author: 1,
        date: now,
        date_utc: now,
        modified: now,
        modified_utc: now,
        title: `Event ${i}: talk, music & more`,
        description: `<p>Event number ${i}, with a paragraph; and another line of text about it.</p>`,
        start,
        end,
        utcStart: wallToUtc(start, 'UTC'),
        utcEnd: wallToUtc(end, 'UTC'),
        cards: {},
      }),
    );
    for (const item of eventTransaction(undefined, event, table, { bound }).items) {
      if (item.Put?.Item) puts.push(item.Put.Item);
      else if (item.Update) updates.push(item.Update);
    }
  }
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < puts.length; i += 25) batches.push(puts.slice(i, i + 25));
  await pool(batches, CONCURRENCY, async (batch) => {
    let pending = batch.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (out.UnprocessedItems?.[table] as typeof pending | undefined) ?? [];
    }
  });
  await pool(updates, CONCURRENCY, (u) => db().send(new UpdateCommand(u)));
  return (performance.now() - t) / 1000;
}

interface Feed {
  query: string;
  status: number;
  events: number;
  matching: number;
  truncated: boolean;
  bytes: number;
  requests: number;
  read: number;
  commands: Record<string, number>;
  latencyMs: { median: number; min: number; max: number };
}

async function feed(query: Record<string, string | number>): Promise<Feed> {
  const send = () => call('GET', 'en', '/events', { query: { ical: 1, ...query } });
  await send();
  capacity.reset();
  const res = await send();
  const cost = capacity.snapshot();
  if (res.status !== 200) throw new Error(`feed ${JSON.stringify(query)}: ${res.status} ${String(res.body).slice(0, 300)}`);
  const times: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const t = performance.now();
    await send();
    times.push(performance.now() - t);
  }
  const h = res.headers as Record<string, string>;
  return {
    query: new URLSearchParams(Object.entries({ ical: 1, ...query }).map(([k, v]): [string, string] => [k, String(v)])).toString(),
    status: res.status,
    events: Number(h['X-Feed-Events']),
    matching: Number(h['X-TEC-Total']),
    truncated: h['X-Feed-Truncated'] === 'true',
    bytes: Buffer.byteLength(String(res.body)),
    requests: cost.requests,
    read: round(cost.read, 2),
    commands: cost.commands,
    latencyMs: { median: round(median(times), 1), min: round(Math.min(...times), 1), max: round(Math.max(...times), 1) },
  };
}

runBench(async () => {
  const started = Date.now();
  const { keys, dynamo } = await benchTable('ical', { stream: false });
  try {
    const token = await mintToken(keys, { role: 'editor' });
    const links: Links = { venues: [], organizers: [], categories: [] };
    for (let i = 0; i < 4; i++) {
      links.venues.push(
        (await call('POST', 'en', '/venues', { body: { venue: `Hall ${i}`, city: 'Vilnius', address: `Street ${i}`, geo_lat: 54.6, geo_lng: 25.2 }, token })).body.id,
      );
      links.organizers.push((await call('POST', 'en', '/organizers', { body: { organizer: `Org ${i}`, email: `org${i}@example.com` }, token })).body.id);
      links.categories.push((await call('POST', 'en', '/categories', { body: { name: `Category ${i}` }, token })).body.slug);
    }
    // The largest size fills the default window (two years) at this many events a day.
    const perDay = Math.max(1, Math.ceil(SIZES.at(-1)! / 700));
    const sizes = [];
    let seeded = 0;
    for (const size of SIZES) {
      const seconds = seeded === 0 ? await seed(0, size, perDay, links, token) : await fill(seeded, size, perDay);
      console.log(`seeded ${size} events (${round(seconds, 1)} s for ${size - seeded})`);
      seeded = size;
      const rss = process.memoryUsage().rss;
      const feeds = [await feed({}), await feed({ categories: links.categories[0]! })];
      for (const f of feeds)
        console.log(`  ${size}: ${f.query}: ${f.events} of ${f.matching} events, ${f.bytes} bytes, ${f.requests} requests, ${f.read} read units, median ${f.latencyMs.median} ms`);
      sizes.push({ size, seedSeconds: round(seconds, 1), feeds, rssMiB: round(Math.max(rss, process.memoryUsage().rss) / 2 ** 20, 0) });
    }
    await mkdir(dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify({ ...runContext(), seconds: Math.round((Date.now() - started) / 1000), reps: REPS, sizes }, null, 2)}\n`);
    console.log(`wrote ${RESULTS}`);
    return 0;
  } finally {
    await dynamo?.stop();
  }
});
