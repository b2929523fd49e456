// `npm run bench:series`: what a long recurring series costs. On a fresh table with the stream
// consumer running (as `npm start` runs it), at each size (default 1,000, then 20,000 events in the
// table, made as daily series of filler), it:
//   - creates a daily series of five years (BENCH_DAYS occurrences) in one POST /events, through the
//     handler with its function's timeout and the request budget (a request past the budget is
//     refused), counting its DynamoDB requests, write units and time;
//   - once the consumer has caught up with the filler, waits until every occurrence is listed,
//     which the stream consumer writes after the 201;
//   - reads a page of the series' occurrences and a page of single events (made through the
//     handler), anonymously, BENCH_REPS times each: requests, read units, median time.
// Targets: the create answers 201; every occurrence listed within BENCH_TARGET_S; a page of occurrences
// costs no more requests, and at most 1.2 times the read units, of a page of single events. Writes
// bench/results/series.json and the table in bench/README.md; exit code 1 when a target is missed.
import '../scripts/sdk-quiet.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { config } from '#lib/runtime/config.js';
import { pool } from '#lib/runtime/pool.js';
import { mintToken } from '#lib/local/dev-auth.js';
import { invoke } from '#lib/local/invoke.js';
import { installLocalBus } from '#lib/local/bus.js';
import { startStreamPoller } from '#lib/local/stream.js';
import { capacity } from '#lib/observe/capacity.js';
import { benchCli } from './cli.js';
import { benchTable, runBench } from './main.js';
import { renderSeries, runContext, writeTable, type SeriesResults } from './readme.js';

const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), 'results', 'series.json');

const settings = benchCli(
  'bench:series',
  `Creates a daily series of five years in one request at each table size, waits for the stream consumer to
write its occurrences, and compares a page of occurrences with a page of single events (a few minutes per
size). Writes bench/results/series.json and the table in bench/README.md.`,
  {
    BENCH_SIZES: { meaning: 'events in the table before each measured series, comma-separated', default: '1000,20000' },
    BENCH_DAYS: { meaning: "the measured series' occurrences (daily)", default: 1826 },
    BENCH_REPS: { meaning: 'reads of each page, for the median time', default: 15 },
    BENCH_WAIT_S: { meaning: 'the longest wait for every occurrence to be listed, in seconds', default: 900 },
    BENCH_TARGET_S: { meaning: 'the target: every occurrence listed within this many seconds of the 201', default: 60 },
  },
);

const ZONE = 'Europe/Vilnius';
const PER_PAGE = 9;
const SINGLES = 30;
/** The events of a series' own window, from its first day to the day after its last. */
const windowOf = (startYear: number, days: number) => ({
  start_date: `${startYear}-01-01 00:00:00`,
  end_date: new Date(Date.UTC(startYear, 0, 1 + days)).toISOString().slice(0, 10),
});

async function main(): Promise<number> {
  const sizes = (settings.text('BENCH_SIZES') ?? '').split(',').map(Number);
  const days = settings.count('BENCH_DAYS');
  const reps = settings.count('BENCH_REPS');
  const waitMs = settings.count('BENCH_WAIT_S') * 1000;
  const targetS = settings.count('BENCH_TARGET_S');
  const table = await benchTable('series', { stream: true });
  installLocalBus();
  const poller = await startStreamPoller({ logWriter: () => {}, log: (line) => console.error(line) });
  try {
    const token = await mintToken(table.keys, { role: 'editor', sub: 'bench-series', ttl: '12h' });
    /** A create, alone: the consumer waits meanwhile, so that the process tally is the create's. */
    const post = async (body: Record<string, unknown>) => {
      await poller.pause();
      try {
        capacity.reset();
        const started = performance.now();
        const res = await invoke('POST', 'en', '/events', { body, token });
        return { res, tally: capacity.snapshot(), ms: Math.round(performance.now() - started) };
      } finally {
        poller.resume();
      }
    };
    const total = async (query: Record<string, string | number>) => {
      const res = await invoke('GET', 'en', '/events', { query: { ...query, per_page: 1 }, token });
      return Number(res.body?.total ?? 0);
    };
    const all = { start_date: '2000-01-01 00:00:00', end_date: '2300-01-01' };
    let fillers = 0;
    /** Waits until `query` lists `n` events; the seconds it took, or undefined past the wait. */
    const listed = async (query: Record<string, string | number>, n: number, since: number) => {
      while ((await total(query)) < n) {
        if (Date.now() - since > waitMs) return undefined;
        await new Promise((ok) => setTimeout(ok, 250));
      }
      return Math.round((Date.now() - since) / 100) / 10;
    };
    /** Daily filler series from 2060 on (14 years apart), until the table holds `n` events. */
    const fill = async (n: number) => {
      for (let left = n - (await total(all)); left > 0; left -= 5000) {
        const count = Math.min(5000, left);
        const year = 2060 + 14 * fillers++;
        const { res } = await post({
          title: `Filler ${fillers}`,
          start_date: `${year}-01-01 10:00:00`,
          end_date: `${year}-01-01 11:00:00`,
          timezone: ZONE,
          recurrence: [`RRULE:FREQ=DAILY;COUNT=${count}`],
        });
        if (res.status !== 201) throw new Error(`filler: ${res.status} ${JSON.stringify(res.body)}`);
      }
      const started = Date.now();
      while ((await total(all)) < n) {
        if (Date.now() - started > Math.max(waitMs, n * 250)) throw new Error(`the table did not reach ${n} events`);
        await new Promise((ok) => setTimeout(ok, 1000));
      }
    };
    /** A page read `reps` times with the consumer waiting (it has nothing left to write by then). */
    const page = async (query: Record<string, string | number>) => {
      let used = capacity.snapshot();
      const times: number[] = [];
      await poller.pause();
      for (let i = 0; i < reps; i++) {
        capacity.reset();
        const started = performance.now();
        const res = await invoke('GET', 'en', '/events', { query: { ...query, per_page: PER_PAGE } });
        times.push(performance.now() - started);
        if (res.status !== 200 || res.body.events.length !== PER_PAGE) throw new Error(`page: ${res.status}, ${res.body?.events?.length} events`);
        used = capacity.snapshot();
      }
      poller.resume();
      times.sort((a, b) => a - b);
      return { requests: used.requests, read: used.read, medianMs: Math.round(times[Math.floor(times.length / 2)]! * 10) / 10 };
    };

    const results: SeriesResults['sizes'] = [];
    for (const [k, size] of sizes.entries()) {
      const filled = Date.now();
      await fill(size);
      // The filler's other triggers done too: the series is measured on a consumer that has caught up.
      await poller.drain(Math.max(waitMs, size * 250));
      console.log(`${size} events in the table, the consumer caught up (${Math.round((Date.now() - filled) / 1000)} s)`);
      const year = 2030 + 6 * k;
      const created = Date.now();
      const { res, tally, ms } = await post({
        title: `Daily ${k}`,
        description: '<p>Every evening, for five years.</p>',
        start_date: `${year}-01-01 19:00:00`,
        end_date: `${year}-01-01 21:00:00`,
        timezone: ZONE,
        recurrence: [`RRULE:FREQ=DAILY;COUNT=${days}`],
      });
      if (res.status !== 201) throw new Error(`the series: ${res.status} ${JSON.stringify(res.body)}`);
      // The consumer's work for the series (it runs in this process): its occurrences and every trigger of each.
      capacity.reset();
      const complete = await listed(windowOf(year, days), days, created);
      await poller.drain(waitMs);
      const consumer = capacity.snapshot();
      const perOccurrence = { requests: Math.round((consumer.requests / days) * 10) / 10, write: Math.round((consumer.write / days) * 10) / 10 };
      console.log(`  create: ${res.status}, ${tally.requests} requests, ${tally.write} WCU, ${ms} ms; every occurrence listed after ${complete ?? 'more than the wait'} s`);
      console.log(`  the consumer's work per occurrence (writing it, then every trigger of its change): ${perOccurrence.requests} requests, ${perOccurrence.write} WCU`);
      const month = `${year}-02`;
      await pool(
        Array.from({ length: SINGLES }, (_, i) => i),
        4,
        async (i) => {
          const day = String(1 + (i % 28)).padStart(2, '0');
          const single = await post({
            title: `Single ${k}.${i}`,
            start_date: `${year + 5}-0${k + 1}-${day} 10:00:00`,
            end_date: `${year + 5}-0${k + 1}-${day} 11:00:00`,
            timezone: ZONE,
          });
          if (single.res.status !== 201) throw new Error(`single: ${single.res.status}`);
        },
      );
      // Every write indexed (a page reads the records of writes the consumer has not yet taken).
      await poller.drain(waitMs);
      const occurrences = await page({ start_date: `${month}-01 00:00:00`, end_date: `${month}-28` });
      const singles = await page({ start_date: `${year + 5}-0${k + 1}-01 00:00:00`, end_date: `${year + 5}-0${k + 1}-28` });
      console.log(
        `  a page of ${PER_PAGE} occurrences: ${occurrences.requests} requests, ${occurrences.read} RCU, ${occurrences.medianMs} ms; of single events: ${singles.requests}, ${singles.read} RCU, ${singles.medianMs} ms`,
      );
      results.push({
        size: await total(all),
        create: { status: res.status, requests: tally.requests, write: tally.write, ms },
        completeSeconds: complete ?? null,
        consumerPerOccurrence: perOccurrence,
        occurrences,
        singles,
      });
    }
    const out: SeriesResults = {
      generatedAt: new Date().toISOString(),
      ...runContext(),
      days,
      perPage: PER_PAGE,
      targetSeconds: targetS,
      sizes: results,
      table: config().tableName,
    };
    await mkdir(dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify(out, null, 2)}\n`);
    await writeTable('series', renderSeries(out));
    const missed = results.filter(
      (s) => s.completeSeconds === null || s.completeSeconds > targetS || s.occurrences.requests > s.singles.requests || s.occurrences.read > 1.2 * s.singles.read,
    );
    for (const s of missed) console.log(`missed a target at ${s.size} events`);
    return missed.length ? 1 : 0;
  } finally {
    await poller.stop();
    await table.dynamo?.stop();
  }
}

runBench(main);
