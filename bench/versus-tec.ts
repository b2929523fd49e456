// `npm run bench:versus-tec`: the CPU one read costs this API's local server and the live TEC,
// side by side on one machine. The same kinds of request (a list page, a filtered page, a search,
// a record by id, the venues, the categories, an iCal feed) are sent, one at a time, to this
// checkout's local gateway (a child process, over a seeded in-memory DynamoDB Local) and to the
// live TEC (Apache with PHP, and MariaDB); the CPU time of each side's processes is read from /proc
// around each run of BENCH_REQUESTS requests, the sides taking turns for BENCH_ROUNDS rounds.
// The ratio is TEC's CPU (web server and database) over this server's (DynamoDB Local apart: on
// AWS it is the service's); DynamoDB Local's CPU is shown beside. Each side answers from its own
// records: TEC from the site as it is, this API from a seed of as many upcoming events. Writes
// bench/results/versus-tec.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { mintToken } from '#lib/local/dev-auth.js';
import { planSeed, runSeed } from '#lib/local/demo-calendar.js';
import { backfillSearch } from '#lib/stream/backfill.js';
import { settleMs } from '#lib/store/validators.js';
import { benchCli } from './cli.js';
import { benchTable, runBench } from './main.js';
import { cpuOf, pidsNamed, serve } from './processes.js';
import { renderVersusTec, runContext, writeTable } from './readme.js';

const settings = benchCli(
  'bench:versus-tec',
  `Sends the same kinds of read to this API's local server and to the live TEC, one at a time, and compares the
CPU time each side's processes spend per request (from /proc). Writes bench/results/versus-tec.json.`,
  {
    TEC_URL: { meaning: 'the live TEC site', default: 'http://127.0.0.1:8080' },
    BENCH_REQUESTS: { meaning: 'requests per kind, side and round', default: 40 },
    BENCH_ROUNDS: { meaning: 'rounds (the sides take turns in each)', default: 3 },
    BENCH_EVENTS: { meaning: 'upcoming events seeded here (unset: as many as the TEC site lists, at least 50, at most 1,000)' },
  },
);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = join(ROOT, 'bench', 'results', 'versus-tec.json');
const TEC = settings.text('TEC_URL')!.replace(/\/+$/, '');
const REQUESTS = settings.count('BENCH_REQUESTS');
const ROUNDS = settings.count('BENCH_ROUNDS');
/** The web server and the database of the live TEC (tec-live runs Apache with mod_php, and MariaDB). */
const TEC_PROCESSES = ['apache2', 'httpd', 'php-fpm', 'php-fpm8.2', 'mariadbd', 'mysqld'];

type Json = Record<string, any>;

/** One kind of read: its path under each side's root, from what each side holds. */
interface Kind {
  key: string;
  label: string;
  path: (s: Facts) => string;
}

/** What a side's paths are made from: a category slug, a word of a title, an event's and a venue's id. */
interface Facts {
  base: string;
  category: string;
  word: string;
  event: number;
  venue: number;
}

const V1 = '/wp-json/tribe/events/v1';
const KINDS: Kind[] = [
  { key: 'list', label: 'list page (`/events`)', path: () => `${V1}/events` },
  { key: 'category', label: 'category page (`/events?categories=…`)', path: (s) => `${V1}/events?categories=${s.category}` },
  { key: 'search', label: 'search (`/events?search=…`)', path: (s) => `${V1}/events?search=${encodeURIComponent(s.word)}` },
  { key: 'event', label: 'event by id (`/events/<id>`)', path: (s) => `${V1}/events/${s.event}` },
  { key: 'venues', label: 'venues (`/venues`)', path: () => `${V1}/venues` },
  { key: 'venue', label: 'a venue (`/venues/<id>`)', path: (s) => `${V1}/venues/${s.venue}` },
  { key: 'categories', label: 'categories (`/categories`)', path: () => `${V1}/categories` },
  { key: 'ical', label: 'iCal feed (`/events/?ical=1`)', path: () => '/events/?ical=1' },
];

async function json(url: string): Promise<{ body: Json; headers: Headers }> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return { body: (await res.json()) as Json, headers: res.headers };
}

/** The facts of a side, read through its own API: the first listed event, its first category with events, a word of its title. */
async function factsOf(base: string): Promise<Facts> {
  const { body } = await json(`${base}${V1}/events?per_page=50`);
  const events = body.events as Json[];
  const withTerms = events.find((e) => e.categories?.length && e.venue?.id) ?? events[0]!;
  const word = String(withTerms.title)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 4)
    .sort((a, b) => b.length - a.length)[0];
  if (!word || !withTerms.venue?.id || !withTerms.categories?.[0]) throw new Error(`${base}: no listed event with a venue, a category and a word of four letters in its title`);
  return { base, category: withTerms.categories[0].slug, word, event: withTerms.id, venue: withTerms.venue.id };
}

/** The CPU time (ms) of some processes so far. */
const cpuOfAll = (pids: number[]) => pids.reduce((sum, pid) => sum + (cpuOf(pid) ?? 0), 0);

/** Sends `n` requests one at a time; the CPU the processes spent, per request, and the answers' status. */
async function measure(url: string, n: number, pids: () => number[], extra?: number): Promise<{ cpuMs: number; extraMs?: number; status: number }> {
  const before = pids();
  const cpu = cpuOfAll(before);
  const side = extra === undefined ? undefined : cpuOf(extra);
  let status = 0;
  for (let i = 0; i < n; i++) {
    const res = await fetch(url);
    await res.arrayBuffer();
    status = res.status;
  }
  // Processes started meanwhile (Apache's new workers) count from zero.
  const after = pids();
  const fresh = after.filter((p) => !before.includes(p));
  const spent = cpuOfAll(after.filter((p) => before.includes(p))) - cpu + cpuOfAll(fresh);
  return { cpuMs: spent / n, ...(extra === undefined ? {} : { extraMs: ((cpuOf(extra) ?? 0) - (side ?? 0)) / n }), status };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x * 100) / 100;

async function main(): Promise<number> {
  const total = Number((await fetch(`${TEC}${V1}/events?per_page=1`)).headers.get('x-tec-total') ?? 0);
  const wanted = settings.text('BENCH_EVENTS') ? settings.count('BENCH_EVENTS') : Math.min(Math.max(total, 50), 1000);
  const t = await benchTable('versus-tec', { stream: false });
  const server = await serve(join(ROOT, 'bench', 'serve.ts'), [ROOT], ROOT);
  try {
    const token = await mintToken(t.keys, { role: 'editor', sub: 'bench-editor', ttl: '12h' });
    await runSeed(planSeed(wanted, 42, new Date()), token, 6);
    // No stream consumer runs here: the search index is built as the backfill builds it.
    await backfillSearch();
    // A site nobody is editing, as TEC's is here: the seed's last write settles before anything is measured
    // (answers are tagged, and kept, by the change counter only once it has stood that long).
    await new Promise((r) => setTimeout(r, settleMs() + 1_000));
    const ours = await factsOf(server.url);
    const theirs = await factsOf(TEC);
    const serverPid = server.proc.pid!;
    const kinds = [];
    for (const kind of KINDS) {
      const rounds: { ours: number; dynamo: number; tec: number }[] = [];
      // A warm-up of each side first: caches and compiled code, as a server that has run a while has them.
      await measure(`${ours.base}${kind.path(ours)}`, 10, () => [serverPid]);
      await measure(`${TEC}${kind.path(theirs)}`, 10, () => pidsNamed(TEC_PROCESSES));
      let status = { ours: 0, tec: 0 };
      for (let r = 0; r < ROUNDS; r++) {
        const a = await measure(`${ours.base}${kind.path(ours)}`, REQUESTS, () => [serverPid], t.dynamo?.pid);
        const b = await measure(`${TEC}${kind.path(theirs)}`, REQUESTS, () => pidsNamed(TEC_PROCESSES));
        rounds.push({ ours: a.cpuMs, dynamo: a.extraMs ?? 0, tec: b.cpuMs });
        status = { ours: a.status, tec: b.status };
      }
      const row = {
        key: kind.key,
        label: kind.label,
        status,
        serverMs: round(median(rounds.map((x) => x.ours))),
        dynamoMs: round(median(rounds.map((x) => x.dynamo))),
        tecMs: round(median(rounds.map((x) => x.tec))),
        ratio: round(median(rounds.map((x) => x.tec / Math.max(x.ours, 0.01)))),
      };
      console.error(`${kind.key}: ${row.serverMs} ms here (+${row.dynamoMs} DynamoDB Local), ${row.tecMs} ms on TEC: ${row.ratio}×`);
      kinds.push(row);
    }
    const results = {
      generatedAt: new Date().toISOString(),
      ...runContext(),
      tec: { url: TEC, upcomingEvents: total, version: readTecVersion() },
      events: wanted,
      requests: REQUESTS,
      rounds: ROUNDS,
      paths: { ours: KINDS.map((k) => k.path({ ...ours, base: '' })), tec: KINDS.map((k) => k.path({ ...theirs, base: '' })) },
      kinds,
    };
    await mkdir(dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    await writeTable('versus-tec', renderVersusTec(results));
    console.log(renderVersusTec(results));
    return kinds.every((k) => k.status.ours === 200 && k.status.tec === 200) ? 0 : 1;
  } finally {
    server.proc.kill('SIGTERM');
    await t.dynamo?.stop();
  }
}

/** TEC's version, from its plugin header, when the site's files are on this machine. */
function readTecVersion(): string | undefined {
  try {
    return /Version:\s*(\S+)/.exec(readFileSync('/srv/anchor-wp/wordpress/wp-content/plugins/the-events-calendar/the-events-calendar.php', 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

runBench(main);
