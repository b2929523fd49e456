// `npm run bench:webhooks`: a burst of changes delivered to three endpoints, as `npm start` runs
// them: the local gateway over HTTP on a fresh table, the table stream's consumer (its webhook
// trigger), and the local webhook queue running the real sender in real time. One endpoint answers
// 204, one 500 (every attempt), one never answers. It subscribes all three to every change, sends
// BENCH_CHANGES creates through the HTTP server (each with an Idempotency-Key, sent again with it
// after a 503, as a careful client does), and waits until every change has reached every endpoint:
// - the healthy endpoint gets each change once (a second delivery of a webhook-id is counted), every
//   delivery verified with the Standard Webhooks reference library;
// - the failing and the hanging endpoints get a first attempt of every change (their retries come
//   minutes later, and are not waited for), and hold nothing back for the healthy one;
// - the time from a create's 201 to its delivery at the healthy endpoint (median, p95, max).
// Writes bench/results/webhooks.json and the table in bench/README.md. Exit 1 when a change did not
// arrive, arrived twice, or a signature did not verify.
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { config } from '#lib/runtime/config.js';
import { mintToken } from '#lib/local/dev-auth.js';
import { installLocalBus } from '#lib/local/bus.js';
import { startGateway } from '#lib/local/gateway.js';
import { startStreamPoller } from '#lib/local/stream.js';
import { startLocalWebhookQueue } from '#lib/local/webhook-queue.js';
import { pool } from '#lib/runtime/pool.js';
import { benchCli } from './cli.js';
import { benchTable, runBench } from './main.js';
import { renderWebhooks, runContext, writeTable, type WebhooksResults } from './readme.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = resolve(HERE, 'results', 'webhooks.json');

const settings = benchCli(
  'bench:webhooks',
  `Sends a burst of creates through the local HTTP server and waits until every change reached three
webhook endpoints (one healthy, one answering 500, one never answering), in real time (a few minutes).
Writes bench/results/webhooks.json and the table in bench/README.md.`,
  {
    BENCH_CHANGES: { meaning: 'creates in the burst', default: 1000 },
    BENCH_CONCURRENCY: { meaning: 'requests at once', default: 16 },
    BENCH_WAIT_S: { meaning: 'seconds to wait for every delivery after the burst', default: 600 },
  },
);

interface Delivery {
  id: string;
  at: number;
  eventId: number | undefined;
  verified: boolean;
}

/** An endpoint on 127.0.0.1 that answers `status` (undefined: never), and records every delivery. */
function endpoint(status: number | undefined) {
  const got: Delivery[] = [];
  const open = new Set<() => void>();
  let secret = '';
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      let verified = false;
      try {
        new Webhook(secret).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      const parsed = JSON.parse(body) as { type?: string; data?: { id?: number } };
      got.push({ id: String(req.headers['webhook-id']), at: Date.now(), eventId: parsed.type === 'event.created' ? parsed.data?.id : undefined, verified });
      if (status === undefined) open.add(() => res.destroy());
      else res.writeHead(status).end();
    });
  });
  return {
    got,
    setSecret: (s: string) => (secret = s),
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    listen: () => new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok)),
    close: () => {
      for (const end of open) end();
      server.closeAllConnections();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
/** Changes sent one at a time after the burst. */
const TRICKLE = 20;

async function main(): Promise<number> {
  const changes = settings.count('BENCH_CHANGES');
  const concurrency = settings.count('BENCH_CONCURRENCY');
  const waitMs = settings.count('BENCH_WAIT_S') * 1000;
  const table = await benchTable('webhooks', { stream: true });
  process.env.WEBHOOK_LOCAL_TARGETS = '1';
  process.env.CHANGE_BUS_NAME = 'local';
  const ends = { healthy: endpoint(204), failing: endpoint(500), hanging: endpoint(undefined) };
  await Promise.all(Object.values(ends).map((e) => e.listen()));
  const queue = await startLocalWebhookQueue({ logWriter: () => {}, log: () => {} });
  installLocalBus();
  const poller = await startStreamPoller({ logWriter: () => {}, log: (line) => console.error(line) });
  const gateway = await startGateway({ quiet: true });
  try {
    const token = await mintToken(table.keys, { role: 'editor', sub: 'bench-webhooks', ttl: '12h' });
    const base = `${gateway.url}/en/${config().namespace}/events/v1`;
    const send = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 1), body: (await res.json()) as any };
    };
    for (const e of Object.values(ends)) {
      const res = await send('/webhooks', { url: e.url(), events: ['*'] });
      if (res.status !== 201) throw new Error(`POST /webhooks: ${res.status} ${JSON.stringify(res.body)}`);
      e.setSecret(res.body.secret);
    }

    // The burst.
    const answered = new Map<number, number>();
    let resent = 0;
    const started = Date.now();
    await pool(
      Array.from({ length: changes }, (_, i) => i),
      concurrency,
      async (i) => {
        const day = new Date(Date.UTC(2032, 0, 1) + (i % 300) * 86_400_000).toISOString().slice(0, 10);
        const body = { title: `Burst ${i}`, start_date: `${day} 18:00:00`, end_date: `${day} 20:00:00` };
        const key = { 'idempotency-key': randomUUID() };
        for (let tries = 0; ; tries++) {
          const res = await send('/events', body, key);
          if (res.status === 201) return void answered.set(res.body.id as number, Date.now());
          if (res.status !== 503 || tries >= 10) throw new Error(`POST /events: ${res.status} ${JSON.stringify(res.body)}`);
          resent++;
          await sleep(res.retryAfter * 1000);
        }
      },
    );
    const burstS = (Date.now() - started) / 1000;
    console.log(`${changes} creates in ${burstS.toFixed(1)} s (${resent} sent again after a 503)`);

    // Every change at every endpoint (first attempts at the failing and hanging ones).
    const reached = (e: ReturnType<typeof endpoint>) => new Set(e.got.map((d) => d.id)).size;
    const deadline = Date.now() + waitMs;
    while (Object.values(ends).some((e) => reached(e) < changes) && Date.now() < deadline) await sleep(250);
    const allS = (Date.now() - started) / 1000;
    // What the burst brought, before the changes one at a time.
    const burst = { healthy: [...ends.healthy.got], failing: [...ends.failing.got], hanging: [...ends.hanging.got] };
    const distinct = (got: Delivery[]) => new Set(got.map((d) => d.id)).size;

    // Then changes one at a time, each after the one before was delivered: the delay a single
    // change sees once the burst is through (the failing and hanging endpoints still retrying).
    const trickle: number[] = [];
    for (let i = 0; i < TRICKLE; i++) {
      const res = await send('/events', { title: `Trickle ${i}`, start_date: '2033-01-01 18:00:00', end_date: '2033-01-01 20:00:00' });
      if (res.status !== 201) throw new Error(`POST /events: ${res.status} ${JSON.stringify(res.body)}`);
      const at = Date.now();
      const until = Date.now() + 60_000;
      let got: Delivery | undefined;
      while (!(got = ends.healthy.got.find((d) => d.eventId === res.body.id)) && Date.now() < until) await sleep(10);
      if (got) trickle.push(got.at - at);
    }
    trickle.sort((a, b) => a - b);

    const healthy = burst.healthy;
    const latencies = healthy.flatMap((d) => (d.eventId !== undefined && answered.has(d.eventId) ? [d.at - answered.get(d.eventId)!] : [])).sort((a, b) => a - b);
    const out: WebhooksResults = {
      generatedAt: new Date().toISOString(),
      ...runContext(),
      changes,
      concurrency,
      burstSeconds: Number(burstS.toFixed(1)),
      allDeliveredSeconds: Number(allS.toFixed(1)),
      resent,
      endpoints: (['healthy', 'failing', 'hanging'] as const).map((name) => ({
        name,
        answers: name === 'healthy' ? '204' : name === 'failing' ? '500' : 'never',
        reached: distinct(burst[name]),
        deliveries: burst[name].length,
        unverified: burst[name].filter((d) => !d.verified).length,
      })),
      latencyMs: { median: percentile(latencies, 50), p95: percentile(latencies, 95), max: latencies.at(-1) ?? 0 },
      trickle: { changes: TRICKLE, delivered: trickle.length, medianMs: percentile(trickle, 50), maxMs: trickle.at(-1) ?? 0 },
    };
    for (const e of out.endpoints) console.log(`  ${e.name} (${e.answers}): ${e.reached} of ${changes} changes, ${e.deliveries} deliveries, ${e.unverified} unverified`);
    console.log(`  201 to delivery at the healthy endpoint: median ${out.latencyMs.median} ms, p95 ${out.latencyMs.p95} ms, max ${out.latencyMs.max} ms`);
    console.log(`  one at a time: ${trickle.length} of ${TRICKLE} delivered, median ${out.trickle.medianMs} ms, max ${out.trickle.maxMs} ms`);
    console.log(`  queue: ${queue.enqueued} messages enqueued, ${queue.deadLetters.length} dead letters`);
    await mkdir(dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify(out, null, 2)}\n`);
    await writeTable('webhooks', renderWebhooks(out));
    const [ok] = out.endpoints;
    const failed = out.endpoints.some((e) => e.reached < changes || e.unverified > 0) || ok!.deliveries !== changes || trickle.length < TRICKLE;
    return failed ? 1 : 0;
  } finally {
    await gateway.close();
    await poller.stop();
    await queue.stop();
    await Promise.all(Object.values(ends).map((e) => e.close()));
    await table.dynamo?.stop();
  }
}

runBench(main);
