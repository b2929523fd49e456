// `npm run bench:import`: how fast a live TEC site moves here, and what a second run costs.
//
// Optionally fills the live site first with BENCH_EVENTS events (made through TEC's REST API,
// marked `bench-import`, a third linked to a venue and an organizer), then imports the whole site
// into a fresh table on DynamoDB Local and imports it again (nothing to write). Reports records per
// second of each run. Writes bench/results/import.json.
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mintToken } from '#lib/local/dev-auth.js';
import { invoke } from '#lib/local/invoke.js';
import { importLive } from '#lib/import/run.js';
import { pool } from '#lib/runtime/pool.js';
import { benchCli } from './cli.js';
import { benchTable, runBench } from './main.js';
import { runContext } from './readme.js';

const settings = benchCli(
  'bench:import',
  `Imports the live TEC (TEC_URL, default http://127.0.0.1:8080; the admin's application password in
/tmp/anchor-wp/etc/app-password.txt) into a fresh table twice: records per second of the first run, and
the second run's time. BENCH_EVENTS > 0 first adds that many events to the site. Writes bench/results/import.json.`,
  {
    BENCH_EVENTS: { meaning: 'events to add to the live site before importing (0: import it as it is)', default: 0 },
    BENCH_CONCURRENCY: { meaning: 'requests to the site at once', default: 4 },
  },
);
const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), 'results', 'import.json');
const SITE = (process.env.TEC_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const ADD = Number(settings.text('BENCH_EVENTS'));
const CONCURRENCY = settings.count('BENCH_CONCURRENCY');

async function fill(login: string, n: number): Promise<number> {
  const auth = `Basic ${Buffer.from(login).toString('base64')}`;
  const post = async (route: string, body: unknown) => {
    const res = await fetch(`${SITE}/wp-json/tribe/events/v1${route}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`POST ${route} -> ${res.status}`);
    return (await res.json()) as { id: number };
  };
  const run = Date.now().toString(36);
  const venue = await post('/venues', { venue: `bench-import hall ${run}` });
  const organizer = await post('/organizers', { organizer: `bench-import org ${run}` });
  const started = performance.now();
  await pool(
    Array.from({ length: n }, (_, i) => i),
    CONCURRENCY,
    (i) => {
      const day = new Date(Date.UTC(2027, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
      return post('/events', {
        title: `bench-import ${run} ${i}`,
        start_date: `${day} 18:00:00`,
        end_date: `${day} 20:00:00`,
        ...(i % 3 === 0 ? { venue: venue.id, organizer: [organizer.id] } : {}),
      });
    },
  );
  return (performance.now() - started) / 1000;
}

runBench(async () => {
  const login = readFileSync(join(process.env.ETC_DIR ?? '/tmp/anchor-wp/etc', 'app-password.txt'), 'utf8')
    .trim()
    .split('\n')
    .at(-1)!;
  const fillSeconds = ADD > 0 ? await fill(login, ADD) : 0;
  const { keys, dynamo } = await benchTable('import', { stream: false });
  try {
    const token = await mintToken(keys, { role: 'editor', sub: 'site-import' });
    const [user, password] = [login.slice(0, login.indexOf(':')), login.slice(login.indexOf(':') + 1)];
    const once = async () => {
      const started = performance.now();
      const s = await importLive({ site: { url: SITE, user, appPassword: password, concurrency: CONCURRENCY }, since: null, send: invoke, token, concurrency: CONCURRENCY });
      const seconds = (performance.now() - started) / 1000;
      const kinds = Object.values(s.kinds);
      const records = kinds.reduce((n, t) => n + t.created + t.updated + t.unchanged, 0);
      const written = kinds.reduce((n, t) => n + t.created + t.updated, 0);
      return { records, written, failed: s.failed.length, seconds: Math.round(seconds * 10) / 10, recordsPerSecond: Math.round(records / seconds) };
    };
    const first = await once();
    console.log(`first run: ${first.records} records (${first.written} written) in ${first.seconds} s, ${first.recordsPerSecond}/s`);
    const second = await once();
    console.log(`second run: ${second.records} records (${second.written} written) in ${second.seconds} s`);
    await mkdir(dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify({ ...runContext(), site: SITE, addedEvents: ADD, fillSeconds: Math.round(fillSeconds), first, second }, null, 2)}\n`);
    console.log(`wrote ${RESULTS}`);
    return first.failed || second.failed ? 1 : 0;
  } finally {
    await dynamo?.stop();
  }
});
