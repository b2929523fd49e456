// Webhooks end to end: subscriptions through the real handlers, changes through DynamoDB Local's
// stream, the real consumer and its webhook trigger, the local webhook queue running the real
// sender, and real HTTP receivers on this machine: one healthy, one that answers 500 at first,
// one that never answers, one that always fails. The queue runs the retry schedule 100,000 times
// faster (its three days in under 3 s). Waits are bounded polls, never timings.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#lib/local/invoke.js';
import { startLocalWebhookQueue, type LocalWebhookQueue } from '#lib/local/webhook-queue.js';
import { resetConfig } from '#lib/runtime/config.js';
import { Webhook } from 'standardwebhooks';
import { verify } from '#lib/domain/webhook-signature.js';
import { roleToken } from '../support/tokens.js';
import { useStreamPoller, waitFor } from '../support/stream.js';
import { useFreshTable } from '../support/table.js';

useFreshTable('webhooks', { stream: true });
const stream = useStreamPoller({ maxRetries: 2 });

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 that answers each request with `answer(request number, id)` (undefined: never). */
function receiver(answer: (n: number, id: string) => number | undefined) {
  const got: Received[] = [];
  const open: { end: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      const status = answer(got.length, String(req.headers['webhook-id']));
      if (status === undefined) open.push({ end: () => res.destroy() });
      else res.writeHead(status).end(status >= 300 ? 'receiver says no' : '');
    });
  });
  return {
    got,
    open,
    server,
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    listen: () => new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok)),
    close: () => {
      for (const o of open) o.end();
      server.closeAllConnections();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/** The specification's reference library for Node verifies the message (its timestamp within five minutes). */
function specVerifies(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

const healthy = receiver(() => 204);
const seen = new Map<string, number>();
// Each message fails twice with a 500, then succeeds.
const flaky = receiver((_, id) => {
  const n = (seen.get(id) ?? 0) + 1;
  seen.set(id, n);
  return n <= 2 ? 500 : 200;
});
const hanging = receiver(() => undefined);
const dead = receiver(() => 503);

let editor: string;
let author: string;
let queue: LocalWebhookQueue;

beforeAll(async () => {
  process.env.WEBHOOK_LOCAL_TARGETS = '1';
  resetConfig();
  [editor, author] = await Promise.all([roleToken('editor', 'hook-editor'), roleToken('author', 'hook-author')]);
  await Promise.all([healthy.listen(), flaky.listen(), hanging.listen(), dead.listen()]);
  queue = await startLocalWebhookQueue({ timeScale: 1e-5, logWriter: () => {} });
});

afterAll(async () => {
  await queue?.stop();
  await Promise.all([healthy.close(), flaky.close(), hanging.close(), dead.close()]);
  delete process.env.WEBHOOK_LOCAL_TARGETS;
  resetConfig();
});

/** `token` null: anonymous. */
const call = (method: string, path: string, body?: unknown, token: string | null = editor) => invoke(method, 'en', path, { body, token: token ?? undefined });

const tomorrow = (hour: number) => {
  const d = new Date(Date.now() + 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString().slice(0, 19).replace('T', ' ');
};

describe('webhook subscriptions', () => {
  it('are for editors only: anonymous callers get 401, authors 403, and nothing is stored', async () => {
    const body = { url: healthy.url(), events: ['*'] };
    expect((await call('POST', '/webhooks', body, null)).status).toBe(401);
    expect((await call('POST', '/webhooks', body, author)).status).toBe(403);
    expect((await call('GET', '/webhooks', undefined, null)).status).toBe(401);
    expect((await call('GET', '/webhooks', undefined, author)).status).toBe(403);
    const list = await call('GET', '/webhooks');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
  });

  it.each([
    ['https://10.1.2.3/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'metadata'],
    ['http://0xa9fea9fe/', 'https'],
    ['https://0xa9fea9fe/', 'metadata'],
    ['https://[fd00:ec2::254]/', 'metadata'],
    ['https://[::ffff:10.0.0.1]/', 'private'],
    ['https://100.64.0.1/', 'shared'],
    ['http://example.com/hook', 'https'],
    ['ftp://127.0.0.1/', 'https'],
    ['not a url', 'absolute'],
    ['https://user:pw@example.com/', 'credentials'],
  ])('refuses the target %s with 400 rest_invalid_param', async (url, words) => {
    const res = await call('POST', '/webhooks', { url, events: ['*'] });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.params.url).toContain(words);
  });

  it('refuses patterns that name no kind or action', async () => {
    for (const events of [['event.moved'], ['person.*'], [], ['event']]) {
      const res = await call('POST', '/webhooks', { url: healthy.url(), events });
      expect(res.status, JSON.stringify(events)).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
    }
    expect((await call('GET', '/webhooks')).body).toEqual([]);
  });
});

describe('deliveries', () => {
  const hooks: Record<string, { id: string; secret: string }> = {};

  beforeAll(async () => {
    for (const [name, r, events] of [
      ['healthy', healthy, ['event.*', 'venue.created']],
      ['flaky', flaky, ['*']],
      ['hanging', hanging, ['event.created']],
    ] as const) {
      const res = await call('POST', '/webhooks', { url: r.url(), events });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(res.body.events).toEqual(events);
      hooks[name] = { id: res.body.id, secret: res.body.secret };
    }
  });

  it('never shows the secret again', async () => {
    const list = await call('GET', '/webhooks');
    expect(list.body.map((h: any) => h.id).sort()).toEqual(
      Object.values(hooks)
        .map((h) => h.id)
        .sort(),
    );
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const one = await call('GET', `/webhooks/${hooks.healthy!.id}`);
    expect(one.status).toBe(200);
    expect(one.body.secret).toBeUndefined();
    expect(one.body.url).toBe(healthy.url());
    expect((await call('GET', '/webhooks/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('signs each change once per matching subscriber, in order per record, and a hanging receiver delays nobody', { timeout: 60_000 }, async () => {
    const created = await call('POST', '/events', { title: 'Hooked Concert', start_date: tomorrow(18), end_date: tomorrow(20), status: 'publish' });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect((await call('POST', `/events/${id}`, { title: 'Hooked Concert, moved' })).status).toBe(200);
    expect((await call('POST', `/events/${id}`, { description: 'Now with a band' })).status).toBe(200);
    expect((await call('DELETE', `/events/${id}`, undefined)).status).toBe(200);
    await stream.drain();

    const about = (r: Received) => JSON.parse(r.body) as { type: string; timestamp: string; data: { id: number; record?: any; trashed?: boolean } };
    await waitFor(() => healthy.got.filter((r) => about(r).data.id === id).length >= 4, 'the healthy receiver gets 4 messages', 8_000);
    // The hanging receiver's first request is still unanswered: it held up nobody.
    expect(hanging.open.length).toBeGreaterThanOrEqual(1);
    const mine = healthy.got.filter((r) => about(r).data.id === id);
    expect(mine.map((r) => about(r).type)).toEqual(['event.created', 'event.updated', 'event.updated', 'event.deleted']);
    // The record as an editor reads it when the message is sent.
    expect(about(mine[0]!).data.record).toMatchObject({ id, title: expect.stringContaining('Hooked Concert') });
    // The trash is a deletion for a mirror: no record.
    expect(about(mine[3]!).data).toEqual({ id, trashed: true });
    for (const r of mine) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(specVerifies(hooks.healthy!.secret, r)).toBe(true);
      expect(verify(hooks.healthy!.secret, r.headers as Record<string, string>, r.body, Math.floor(Date.now() / 1000))).toBe(true);
      // Another subscriber's secret does not verify it.
      expect(specVerifies(hooks.flaky!.secret, r)).toBe(false);
    }
    expect(new Set(mine.map((r) => r.headers['webhook-id'])).size).toBe(4);

    // The 500s are retried with the same webhook-id until a 2xx, still in order per record.
    await waitFor(
      () => new Set(flaky.got.filter((r) => about(r).data.id === id).map((r) => r.headers['webhook-id'])).size >= 4 && seen.size >= 4 && [...seen.values()].every((n) => n >= 3),
      'every flaky message gets through',
      10_000,
    );
    const flakyMine = flaky.got.filter((r) => about(r).data.id === id);
    const order: string[] = [];
    for (const r of flakyMine) if (!order.includes(about(r).type + r.headers['webhook-id'])) order.push(about(r).type + r.headers['webhook-id']);
    expect(order.map((t) => t.replace(/msg_.*/, ''))).toEqual(['event.created', 'event.updated', 'event.updated', 'event.deleted']);
    for (const r of flakyMine) expect(specVerifies(hooks.flaky!.secret, r)).toBe(true);
    // Each message exactly three times: two 500s and the success.
    const counts = new Map<string, number>();
    for (const r of flakyMine) counts.set(String(r.headers['webhook-id']), (counts.get(String(r.headers['webhook-id'])) ?? 0) + 1);
    expect([...counts.values()]).toEqual([3, 3, 3, 3]);

    const deliveries = await call('GET', `/webhooks/${hooks.flaky!.id}/deliveries`);
    expect(deliveries.status).toBe(200);
    const first = deliveries.body.filter((d: any) => d.message_id === flakyMine[0]!.headers['webhook-id']).reverse();
    expect(first.map((d: any) => [d.attempt, d.status, d.outcome])).toEqual([
      [1, 500, 'retrying'],
      [2, 500, 'retrying'],
      [3, 200, 'delivered'],
    ]);
    expect(first[0].error).toBe('receiver says no');
    expect(typeof first[0].duration_ms).toBe('number');

    // The hanging receiver's attempt ends at the timeout and is recorded as such.
    await waitFor(
      async () => (await call('GET', `/webhooks/${hooks.hanging!.id}/deliveries`)).body.some((d: any) => d.error?.includes('no answer')),
      'the hanging attempt times out',
      20_000,
    );
    const timedOut = (await call('GET', `/webhooks/${hooks.hanging!.id}/deliveries`)).body.find((d: any) => d.error?.includes('no answer'));
    expect(timedOut).toMatchObject({ status: null, outcome: 'retrying', type: 'event.created' });
    expect(timedOut.duration_ms).toBeGreaterThanOrEqual(9_900);
    // Only event.created matched it: the updates and the trash were never queued for it.
    expect(new Set(hanging.got.map((r) => about(r).type))).toEqual(new Set(['event.created']));
  });

  it('delivers a burst to a healthy receiver while another receiver hangs on every message of it', { timeout: 60_000 }, async () => {
    const quick = receiver(() => 200);
    const stuck = receiver(() => undefined);
    await Promise.all([quick.listen(), stuck.listen()]);
    try {
      for (const r of [quick, stuck]) expect((await call('POST', '/webhooks', { url: r.url(), events: ['tag.created'] })).status).toBe(201);
      const ids: number[] = [];
      for (let i = 0; i < 20; i++) {
        const tag = await call('POST', '/tags', { name: `burst-${i}` });
        expect(tag.status).toBe(201);
        ids.push(tag.body.id);
      }
      await stream.drain();
      await waitFor(() => ids.every((id) => quick.got.some((r) => JSON.parse(r.body).data.id === id)), 'every tag reaches the quick receiver', 9_000);
      // The stuck receiver holds (nearly) all of them unanswered at this moment: none held up the quick one.
      expect(stuck.open.length).toBeGreaterThanOrEqual(10);
      expect(quick.got).toHaveLength(20);
    } finally {
      await Promise.all([quick.close(), stuck.close()]);
    }
  });

  it('gives a message up after its last retry: kept with its payload, the subscription marked failing', { timeout: 60_000 }, async () => {
    const hook = await call('POST', '/webhooks', { url: dead.url(), events: ['tag.created'] });
    expect(hook.status).toBe(201);
    const tag = await call('POST', '/tags', { name: 'hooked-tag' });
    expect(tag.status).toBe(201);
    await stream.drain();
    await waitFor(async () => (await call('GET', `/webhooks/${hook.body.id}`)).body.failing === true, 'the subscription is marked failing', 30_000);
    const deliveries = (await call('GET', `/webhooks/${hook.body.id}/deliveries`)).body;
    // The first attempt and one per wait of the schedule.
    expect(deliveries).toHaveLength(12);
    expect(deliveries.every((d: any) => d.status === 503)).toBe(true);
    expect(deliveries[0]).toMatchObject({ attempt: 12, outcome: 'failed' });
    expect(deliveries[0].payload).toMatchObject({ type: 'tag.created', data: { id: tag.body.id, record: { id: tag.body.id, name: 'hooked-tag' } } });
    expect(dead.got).toHaveLength(12);
    expect(queue.deadLetters).toHaveLength(0);
  });

  it('stops delivering once deleted', async () => {
    const gone = await call('DELETE', `/webhooks/${hooks.healthy!.id}`, undefined);
    expect(gone.status).toBe(200);
    expect(gone.body.deleted).toBe(true);
    expect((await call('GET', `/webhooks/${hooks.healthy!.id}`)).status).toBe(404);
    expect((await call('DELETE', `/webhooks/${hooks.healthy!.id}`, undefined)).status).toBe(404);
    const before = healthy.got.length;
    const venue = await call('POST', '/venues', { venue: 'Hooked Hall' });
    expect(venue.status).toBe(201);
    await stream.drain();
    // The flaky receiver (every type) gets it through: the change went through the queue.
    const isVenue = (r: Received) => JSON.parse(r.body).type === 'venue.created' && JSON.parse(r.body).data.id === venue.body.id;
    await waitFor(() => flaky.got.filter(isVenue).length >= 3, 'the venue reaches the flaky receiver', 10_000);
    expect(healthy.got.length).toBe(before);
  });
});
