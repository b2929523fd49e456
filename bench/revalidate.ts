// `npm run bench:revalidate`: what a conditional GET costs when the answer has not changed, against
// what the full answer costs.
//
// Seeds BENCH_EVENTS events in `en` through the real create handler (every third linked to a venue
// and a category), waits until the table has settled (lib/store/validators.ts, settleMs), then for
// an event by id, a list page and the calendar feed (`?ical=1`, every seeded event) measures,
// through the real handler in this process, anonymous:
// - `full`: a GET without If-None-Match (the 200 a poller would download);
// - `revalidated`: the same GET with the tag it was given (the 304, from the table's change counter);
// - `digest`: the 304 as every conditional GET was answered before: a tag made from the body, so
//   the answer is computed again to compare it (got by making a tag while the table counts as settling).
// Each figure is a median over BENCH_REPS requests: DynamoDB requests, read units, items and bytes
// the table returned, this process's CPU time (the function's side: DynamoDB Local runs apart) and
// the latency. Writes bench/results/revalidate.json.
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { plainItem } from '#lib/store/attributes.js';
import { config } from '#lib/runtime/config.js';
import { capacity, db } from '#lib/store/db.js';
import { readValidator } from '#lib/store/validators.js';
import { settleMs } from '#lib/store/validators.js';
import { withLogWriter } from '#lib/observe/logger.js';
import { mintToken } from '#lib/local/dev-auth.js';
import { call } from '#lib/local/demo-calendar.js';
import { matchRoute, toApiGatewayEvent } from '#lib/local/event.js';
import { loadHandler, runLambda } from '#lib/local/gateway.js';
import { terminalLogWriter } from '#lib/local/terminal-log.js';
import { benchCli } from './cli.js';
import { benchTable, runBench } from './main.js';
import { runContext } from './readme.js';
import { sentByDocumentClient } from './trace.js';
import { pool } from '#lib/runtime/pool.js';

const settings = benchCli(
  'bench:revalidate',
  `What a conditional GET of an unchanged record, list page and calendar feed costs (about a minute):
seeds events through the real create handler, then measures each read without If-None-Match (200),
with its tag (304 from the change counter) and with a tag made from the body (304 after computing the
answer, as before). Writes bench/results/revalidate.json.`,
  {
    BENCH_EVENTS: { meaning: 'events to seed; the feed holds them all', default: 600 },
    BENCH_CONCURRENCY: { meaning: 'creates in flight while seeding', default: 8 },
    BENCH_REPS: { meaning: 'requests per figure (medians)', default: 15 },
  },
);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), 'results', 'revalidate.json');
const EVENTS = settings.count('BENCH_EVENTS');
const CONCURRENCY = settings.count('BENCH_CONCURRENCY');
const REPS = settings.count('BENCH_REPS');

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const two = (n: number) => String(n).padStart(2, '0');

type Item = Record<string, unknown>;
/** Items and bytes the table returned, counted by a middleware on the shared client. */
const returned = { items: 0, bytes: 0 };
function countReturned(): void {
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const out = result.output as { Item?: Item; Items?: Item[]; Responses?: Record<string, Item[]> };
      const items = [...(out.Item ? [out.Item] : []), ...(out.Items ?? []), ...Object.values(out.Responses ?? {}).flat()];
      // Bytes of the items as plain values, as the document client answers them; the plain reads' (lib/store/reads.ts) come marshalled.
      const document = sentByDocumentClient(context);
      returned.items += items.length;
      for (const item of items) returned.bytes += Buffer.byteLength(JSON.stringify(document ? item : plainItem(item as Record<string, AttributeValue>)));
      return result;
    },
    { step: 'initialize', name: 'benchReturnedItems' },
  );
}

const quiet = terminalLogWriter({ format: 'json', quiet: true });

/** One anonymous GET through the operation's handler. */
async function get(path: string, ifNoneMatch?: string): Promise<{ status: number; etag: string; bytes: number }> {
  const url = `/en/${config().namespace}/events/v1${path}`;
  const match = matchRoute('GET', url.split('?')[0]!);
  const headers = { host: '127.0.0.1:3000', ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) };
  const event = toApiGatewayEvent({ method: 'GET', url, headers, requestId: randomUUID() }, match);
  const handler = await loadHandler(match.handler!);
  const result = await withLogWriter(quiet, () => runLambda(handler, event, match.op));
  const h = (result.headers ?? {}) as Record<string, string>;
  return { status: result.statusCode ?? 200, etag: h.ETag ?? h.etag ?? '', bytes: Buffer.byteLength(result.body ?? '') };
}

interface Figures {
  status: number;
  requests: number;
  readUnits: number;
  items: number;
  itemBytes: number;
  bodyBytes: number;
  cpuMs: number;
  latencyMs: number;
}

/** Medians over REPS requests of one kind. */
async function measure(path: string, ifNoneMatch?: string): Promise<Figures> {
  const runs: Figures[] = [];
  for (let i = 0; i < REPS; i++) {
    capacity.reset();
    returned.items = 0;
    returned.bytes = 0;
    const cpu = process.cpuUsage();
    const t = performance.now();
    const res = await get(path, ifNoneMatch);
    const latencyMs = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const cost = capacity.snapshot();
    runs.push({
      status: res.status,
      requests: cost.requests,
      readUnits: cost.read,
      items: returned.items,
      itemBytes: returned.bytes,
      bodyBytes: res.bytes,
      cpuMs: (used.user + used.system) / 1000,
      latencyMs,
    });
  }
  const statuses = new Set(runs.map((r) => r.status));
  if (statuses.size !== 1) throw new Error(`${path}: statuses ${[...statuses].join(', ')}`);
  const m = (key: keyof Figures, d = 2) => round(median(runs.map((r) => r[key])), d);
  return {
    status: runs[0]!.status,
    requests: m('requests'),
    readUnits: m('readUnits'),
    items: m('items'),
    itemBytes: m('itemBytes', 0),
    bodyBytes: m('bodyBytes', 0),
    cpuMs: m('cpuMs', 1),
    latencyMs: m('latencyMs', 1),
  };
}

/** Until the counter has not moved for settleMs(): answers are then tagged from it. */
async function untilSettled(): Promise<void> {
  const { last } = await readValidator();
  const wait = last + settleMs() + 100 - Date.now();
  if (wait > 0) await new Promise((ok) => setTimeout(ok, wait));
}

runBench(async () => {
  const started = Date.now();
  const { keys, dynamo } = await benchTable('revalidate', { stream: false });
  try {
    countReturned();
    const token = await mintToken(keys, { role: 'editor' });
    const venue = (await call('POST', 'en', '/venues', { body: { venue: 'Main Hall', city: 'Vilnius', address: 'Street 1' }, token })).body.id as number;
    const category = (await call('POST', 'en', '/categories', { body: { name: 'Talks' }, token })).body.id as number;
    let first: number | undefined;
    const t = performance.now();
    await pool(
      Array.from({ length: EVENTS }, (_, i) => i),
      CONCURRENCY,
      async (i) => {
        const day = new Date(Date.now() + (1 + Math.floor(i / 3)) * 86_400_000);
        const date = `${day.getUTCFullYear()}-${two(day.getUTCMonth() + 1)}-${two(day.getUTCDate())}`;
        const hour = 9 + (i % 3) * 3;
        const body = {
          title: `Event ${i}: talk, music & more`,
          description: `<p>Event number ${i}, with a paragraph; and another line of text about it.</p>`,
          start_date: `${date} ${two(hour)}:00:00`,
          end_date: `${date} ${two(hour + 2)}:00:00`,
          status: 'publish',
          ...(i % 3 === 0 ? { venue, categories: [category] } : {}),
        };
        const res = await call('POST', 'en', '/events', { body, token });
        if (res.status !== 201) throw new Error(`create ${i}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        if (i === 0) first = res.body.id;
      },
    );
    const seedSeconds = round((performance.now() - t) / 1000, 1);
    console.log(`seeded ${EVENTS} events in ${seedSeconds} s`);

    const reads = [
      { name: 'record', path: `/events/${first}` },
      { name: 'list page', path: '/events?per_page=50' },
      { name: 'calendar feed', path: '/events?ical=1' },
    ];
    // Tags made from the body (the way before): the table counts as settling for an hour.
    process.env.REVALIDATE_SETTLE_SECONDS = '3600';
    const digestTags = new Map<string, string>();
    for (const r of reads) digestTags.set(r.path, (await get(r.path)).etag);
    delete process.env.REVALIDATE_SETTLE_SECONDS;
    await untilSettled();

    const results = [];
    for (const r of reads) {
      const warm = await get(r.path);
      if (warm.status !== 200) throw new Error(`${r.path}: ${warm.status}`);
      const full = await measure(r.path);
      const revalidated = await measure(r.path, warm.etag);
      const digest = await measure(r.path, digestTags.get(r.path));
      if (revalidated.status !== 304 || digest.status !== 304) throw new Error(`${r.path}: expected 304s, got ${revalidated.status} and ${digest.status}`);
      console.log(
        `${r.name}: 200 ${full.requests} requests, ${full.readUnits} RU, ${full.items} items, ${full.cpuMs} ms CPU; 304 ${revalidated.requests} requests, ${revalidated.readUnits} RU, ${revalidated.items} items, ${revalidated.cpuMs} ms CPU; 304 by digest ${digest.cpuMs} ms CPU`,
      );
      results.push({ name: r.name, path: r.path, full, revalidated, digest });
    }
    await mkdir(dirname(RESULTS), { recursive: true });
    await writeFile(
      RESULTS,
      `${JSON.stringify({ ...runContext(), seconds: Math.round((Date.now() - started) / 1000), events: EVENTS, reps: REPS, seedSeconds, reads: results }, null, 2)}\n`,
    );
    console.log(`wrote ${RESULTS}`);
    return 0;
  } finally {
    await dynamo?.stop();
  }
});
