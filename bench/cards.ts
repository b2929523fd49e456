// `npm run bench:cards`: a venue linked to many events (BENCH_LINKED, default 5,000) is edited.
// The edit answers after its own write; the stream consumer (run by the local poller, as with
// `npm start`) rewrites the card of every linked event. It measures the edit request's time and
// capacity, and the time until every linked event carries the venue's new revision, and writes
// bench/results/cards.json (and its table in bench/README.md for a default run).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { capacity } from '#lib/store/db.js';
import { mintToken } from '#lib/local/dev-auth.js';
import { installLocalBus } from '#lib/local/bus.js';
import { startStreamPoller } from '#lib/local/stream.js';
import { batchGet, getItem, queryAll } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import { ofKind } from '#lib/store/items.js';
import { benchCli } from './cli.js';
import { benchTable, runBench } from './main.js';
import { renderCards, runContext, writeTable } from './readme.js';
import { call, Progress } from '#lib/local/demo-calendar.js';
import { pool } from '#lib/runtime/pool.js';

const DEFAULT_LINKED = 5000;
const settings = benchCli(
  'bench:cards',
  `Edits a venue linked to many events (a few minutes) and measures the edit request and the time
until every linked event shows the new card. Writes bench/results/cards.json and, with the default
number of events, the table in bench/README.md.`,
  {
    BENCH_LINKED: { meaning: 'events linked to the venue', default: DEFAULT_LINKED },
    BENCH_CONCURRENCY: { meaning: 'creates in flight while seeding', default: 8 },
  },
);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = resolve(HERE, 'results', 'cards.json');
const LINKED = settings.count('BENCH_LINKED');
const CONCURRENCY = settings.count('BENCH_CONCURRENCY');

/** How many linked events carry a card of `venue` older than `rev`. */
async function stale(venueId: number, rev: number): Promise<number> {
  const links = await queryAll<{ eventId: number }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': keys.post(venueId).pk, ':p': keys.linkPrefix },
    ProjectionExpression: 'eventId',
  });
  const events = await batchGet(
    links.map((l) => keys.post(l.eventId)),
    true,
  );
  let old = 0;
  for (const e of events.values()) if (e.kind === 'event' && (e.cards?.[String(venueId)]?.rev ?? 0) < rev) old++;
  return old + (links.length - events.size);
}

async function main(): Promise<number> {
  const { keys: keysDev, dynamo, endpoint, tableName } = await benchTable('cards');
  // The change feed goes to the in-process bus, as under `npm start`.
  installLocalBus();
  const token = await mintToken(keysDev, { role: 'editor', sub: 'bench-editor', ttl: '12h' });
  const poller = await startStreamPoller({ tableName, endpoint, logWriter: () => {}, log: (line) => console.error(`[stream] ${line}`) });
  try {
    const venue = await call('POST', 'en', '/venues', { token, body: { venue: 'Bench Hall', address: '1 Main St', city: 'Vilnius' } });
    if (venue.status !== 201) throw new Error(`venue create -> ${venue.status}`);
    const venueId = venue.body.id as number;
    console.error(`creating ${LINKED.toLocaleString('en-US')} events linked to venue ${venueId}…`);
    const progress = new Progress(LINKED, 'events');
    await pool(
      Array.from({ length: LINKED }, (_, i) => i),
      CONCURRENCY,
      async (i) => {
        const day = new Date(Date.UTC(2031, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
        const res = await call('POST', 'en', '/events', {
          token,
          body: { title: `Bench concert ${i}`, start_date: `${day} 19:00:00`, end_date: `${day} 21:00:00`, venue: venueId },
        });
        if (res.status !== 201) throw new Error(`event create -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
        progress.tick();
      },
    );
    await poller.drain(60 * 60_000);

    console.error('editing the venue…');
    // The consumer waits until the request is measured, so that its work is not counted in it.
    await poller.pause();
    capacity.reset();
    const started = performance.now();
    const edit = await call('PATCH', 'en', `/venues/${venueId}`, { token, body: { address: '2 Main St' } });
    const requestMs = performance.now() - started;
    const used = capacity.snapshot();
    if (edit.status !== 200) throw new Error(`venue edit -> ${edit.status}`);
    const rev = ofKind(await getItem(keys.post(venueId)), 'venue')!.rev ?? 0;
    let left = await stale(venueId, rev);
    const before = left;
    poller.resume();
    while (left > 0) {
      await poller.drain(60 * 60_000);
      left = await stale(venueId, rev);
      if (performance.now() - started > 30 * 60_000) throw new Error(`${left} cards still old after 30 minutes`);
    }
    const convergedMs = performance.now() - started;
    if (poller.deadLetters.length) throw new Error(`${poller.deadLetters.length} stream records failed`);
    console.log(
      `edit answered in ${requestMs.toFixed(0)} ms (${used.read} RCU, ${used.write} WCU; ${before} of ${LINKED} cards left to the consumer); every card new after ${(convergedMs / 1000).toFixed(1)} s`,
    );

    const saved = {
      generatedAt: new Date().toISOString(),
      ...runContext(),
      endpoint: dynamo ? 'in-memory DynamoDB Local' : endpoint,
      linkedEvents: LINKED,
      requestMs: Math.round(requestMs * 10) / 10,
      requestReads: used.read,
      requestWrites: used.write,
      leftToConsumer: before,
      convergedMs: Math.round(convergedMs),
    };
    await mkdir(dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify(saved, null, 2)}\n`);
    if (LINKED === DEFAULT_LINKED) {
      await writeTable('cards', renderCards(saved));
    }
    console.error(`Wrote ${RESULTS}`);
    return 0;
  } finally {
    await poller.stop();
    await dynamo?.stop();
  }
}

runBench(main);
