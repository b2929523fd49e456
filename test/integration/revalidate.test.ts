// Cheap revalidation against DynamoDB Local and the real local stream: a conditional GET of an
// unchanged record, list page or feed answers 304 after one small read (the table's change
// counter, lib/store/validators.ts), and never 304 once something it shows changed, also before
// the stream consumer has seen the change, and also for writes no request counted (the consumer
// counts them).
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config, resetConfig } from '#lib/runtime/config.js';
import { capacity, db } from '#lib/store/db.js';
import { keys } from '#lib/store/keys.js';
import type { EventItem } from '#lib/store/items.js';
import { readValidator } from '#lib/store/validators.js';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { loadHandler, runLambda } from '#lib/local/gateway.js';
import { matchRoute, toApiGatewayEvent } from '#lib/local/event.js';
import { useStreamPoller } from '../support/stream.js';
import { useFreshTable } from '../support/table.js';
import { moveCounterElsewhere } from '../support/counter.js';
import { storedItem } from '../support/stored.js';

// DynamoDB Local's reads are exact and no terms are kept between requests: a tag may be made from
// the counter one second (the clock margin) after it moved. The settling rule has a test below.
const saved = { settle: process.env.REVALIDATE_SETTLE_SECONDS, terms: process.env.TERM_CACHE_SECONDS };
beforeAll(() => {
  process.env.REVALIDATE_SETTLE_SECONDS = '0';
  process.env.TERM_CACHE_SECONDS = '0';
  resetConfig();
});
afterAll(() => {
  for (const [name, value] of [
    ['REVALIDATE_SETTLE_SECONDS', saved.settle],
    ['TERM_CACHE_SECONDS', saved.terms],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
});

useFreshTable('revalidate', { stream: true });
const stream = useStreamPoller();

let token: string;
beforeAll(async () => {
  token = await roleToken('editor', 'revalidate-editor');
});

const write = async (method: string, path: string, body: Record<string, unknown>) => {
  const res = await invoke(method, 'en', path, { body, token });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
};

interface Answer {
  status: number;
  etag: string | undefined;
  text: string;
}

/** An anonymous GET through the operation's handler, with `If-None-Match` when given. */
async function get(path: string, ifNoneMatch?: string): Promise<Answer> {
  const url = `/en/${config().namespace}/events/v1${path}`;
  const match = matchRoute('GET', url.split('?')[0]!);
  const sent = { host: '127.0.0.1:3000', ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) };
  const event = toApiGatewayEvent({ method: 'GET', url, headers: sent, requestId: randomUUID() }, match);
  const op = match.op;
  const result = await runLambda(await loadHandler(op!.handler), event, op);
  const headers = (result.headers ?? {}) as Record<string, string>;
  return { status: result.statusCode ?? 200, etag: headers.ETag ?? headers.etag, text: result.body ?? '' };
}

const at = (days: number, hour: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;

/** Until every change so far is counted by the consumer and the counter has settled. */
async function settled(): Promise<void> {
  await stream.drain(60_000);
  const { last } = await readValidator();
  const wait = last + 1_100 - Date.now();
  if (wait > 0) await new Promise((ok) => setTimeout(ok, wait));
}

const READS = ['/events?per_page=5', '/events?ical=1', '/venues', '/categories'];

describe('revalidation of unchanged answers', () => {
  let venue: any;
  let category: any;
  let events: any[];
  beforeAll(async () => {
    venue = await write('POST', '/venues', { venue: 'Quiet Hall', address: 'Lane 1' });
    category = await write('POST', '/categories', { name: 'Talks' });
    events = [];
    for (let i = 0; i < 6; i++) {
      events.push(
        await write('POST', '/events', { title: `Talk ${i}`, start_date: at(i + 1, 10), end_date: at(i + 1, 11), venue: venue.id, categories: [category.id], status: 'publish' }),
      );
    }
    await settled();
  }, 120_000);

  it('answers 304 to a record, a list page and a feed with one strongly consistent Query of the counter', async () => {
    for (const path of [`/events/${events[0].id}`, ...READS, `/venues/${venue.id}`]) {
      capacity.reset();
      const first = await get(path);
      const full = capacity.snapshot();
      expect(first.status, path).toBe(200);
      expect(first.etag, path).toMatch(/^"(\d+\.\d+\.)?[A-Za-z0-9_-]{22}"$/);
      capacity.reset();
      const again = await get(path, first.etag);
      const cheap = capacity.snapshot();
      expect(again.status, path).toBe(304);
      expect(again.etag, path).toBe(first.etag);
      expect(again.text).toBe('');
      expect(cheap.commands, path).toEqual({ QueryCommand: 1 });
      expect(cheap.read, path).toBeLessThanOrEqual(1);
      // The full read reads the answer (and the counter, unless this process read it a moment ago).
      expect(full.requests, path).toBeGreaterThanOrEqual(cheap.requests);
      // A weak form of the tag, and a list holding it, are the same tag.
      expect((await get(path, `"nope", W/${first.etag}`)).status, path).toBe(304);
      expect((await get(path, '"nope"')).status, path).toBe(200);
    }
  });

  it('keeps the tag of a record in the form If-Match takes', async () => {
    const e = events[1];
    const tag = (await get(`/events/${e.id}`)).etag!;
    const stored = (await storedItem<EventItem>(keys.post(e.id)))!;
    expect(tag.startsWith(`"${e.id}.${stored.version}.`)).toBe(true);
    const edited = await invoke('POST', 'en', `/events/${e.id}`, { body: { cost: '5' }, token });
    expect(edited.status).toBe(200);
  });
});

describe('a write moves every tag it could change, before the stream consumer runs', () => {
  let venue: any;
  let category: any;
  let first: any;
  beforeAll(async () => {
    venue = await write('POST', '/venues', { venue: 'Busy Hall', address: 'Road 1' });
    category = await write('POST', '/categories', { name: 'Concerts' });
    first = await write('POST', '/events', { title: 'Opening', start_date: at(2, 18), end_date: at(2, 20), venue: venue.id, categories: [category.id], status: 'publish' });
    await settled();
  }, 60_000);

  /** The tags of these reads now; after `change`, each read with its tag is a 200 that shows `expected`. */
  async function changes(paths: string[], change: () => Promise<unknown>, expected: string): Promise<void> {
    await settled();
    const before = new Map<string, string>();
    for (const path of paths) {
      const a = await get(path);
      expect(a.status, path).toBe(200);
      expect(a.text, path).not.toContain(expected);
      expect((await get(path, a.etag)).status, path).toBe(304);
      before.set(path, a.etag!);
    }
    await stream.poller.pause();
    try {
      await change();
      for (const path of paths) {
        const after = await get(path, before.get(path));
        expect(after.status, path).toBe(200);
        expect(after.text, path).toContain(expected);
        expect(after.etag, path).not.toBe(before.get(path));
      }
    } finally {
      stream.poller.resume();
    }
  }

  const shows = () => [`/events/${first.id}`, '/events', '/events?ical=1'];

  // A field that searches do not read: the update leaves no recent-write item for the consumer.
  it('an update of one field of an event', () => changes([`/events/${first.id}`, '/events'], () => write('POST', `/events/${first.id}`, { cost: '17' }), '"cost":"$17"'));

  it('a new event', () =>
    changes(['/events', '/events?ical=1'], () => write('POST', '/events', { title: 'Encore', start_date: at(3, 18), end_date: at(3, 20), status: 'publish' }), 'Encore'));

  it('an edit of the venue an event shows', () =>
    changes([...shows(), `/venues/${venue.id}`, '/venues'], () => write('POST', `/venues/${venue.id}`, { address: 'Avenue 99' }), 'Avenue 99'));

  it('a rename of a category an event shows', () => changes([...shows(), '/categories'], () => write('POST', `/categories/${category.id}`, { name: 'Recitals' }), 'Recitals'));

  it('a trash: the record is gone from the list and its read by id is no 304', async () => {
    const doomed = await write('POST', '/events', { title: 'Cancelled gig', start_date: at(4, 18), end_date: at(4, 20), status: 'publish' });
    await settled();
    const list = await get('/events');
    expect(list.text).toContain('Cancelled gig');
    const one = await get(`/events/${doomed.id}`);
    await stream.poller.pause();
    try {
      await write('DELETE', `/events/${doomed.id}`, {});
      const again = await get('/events', list.etag);
      expect(again.status).toBe(200);
      expect(again.text).not.toContain('Cancelled gig');
      expect((await get(`/events/${doomed.id}`, one.etag)).status).not.toBe(304);
    } finally {
      stream.poller.resume();
    }
  });
});

describe('writes no request counted', () => {
  it('are counted by the stream consumer: a 200 with the new body once it has run', async () => {
    const e = await write('POST', '/events', { title: 'Imported later', start_date: at(5, 9), end_date: at(5, 10), status: 'publish' });
    await settled();
    const tag = (await get(`/events/${e.id}`)).etag!;
    // A change written past the API (an import, or a function stopped between its commit and its
    // count): only the consumer's count can tell readers.
    await stream.poller.pause();
    const item = (await storedItem<EventItem>(keys.post(e.id)))!;
    await db().send(new PutCommand({ TableName: config().tableName, Item: { ...item, title: 'Imported and renamed', version: item.version + 1 } }));
    stream.poller.resume();
    await stream.drain(60_000);
    const after = await get(`/events/${e.id}`, tag);
    expect(after.status).toBe(200);
    expect(after.text).toContain('Imported and renamed');
  });
});

describe('the counter as the process read it a moment ago', () => {
  it('tags a read without If-None-Match, and never makes a stale tag match: a conditional GET reads the counter as it is', async () => {
    const e = await write('POST', '/events', { title: 'Kept counter', start_date: at(6, 9), end_date: at(6, 10), status: 'publish' });
    await settled();
    const path = `/events/${e.id}`;
    await stream.poller.pause();
    try {
      await get(path);
      // Read a moment ago: the record alone.
      capacity.reset();
      const before = await get(path);
      expect(capacity.snapshot().commands).toEqual({ GetItemCommand: 1 });
      // Another function writes the record and moves the counter: this process has not seen the move.
      const item = (await storedItem<EventItem>(keys.post(e.id)))!;
      await db().send(new PutCommand({ TableName: config().tableName, Item: { ...item, title: 'Kept counter, renamed', version: item.version + 1 } }));
      await moveCounterElsewhere(0, Date.now() - 5_000);
      // Within the second, a read shows the record as it is, tagged with the counter as read before.
      const stale = await get(path);
      expect(stale.text).toContain('Kept counter, renamed');
      expect(stale.etag).not.toBe(before.etag);
      // That tag, and the one before the write, are no 304: the conditional GET reads the counter now.
      capacity.reset();
      const checked = await get(path, before.etag);
      expect(checked.status).toBe(200);
      expect(capacity.snapshot().commands.QueryCommand).toBe(1);
      const again = await get(path, stale.etag);
      expect(again.status).toBe(200);
      expect(again.text).toContain('Kept counter, renamed');
      // Revalidated with the tag of an answer made from the counter as it is: 304.
      expect((await get(path, again.etag)).status).toBe(304);
    } finally {
      stream.poller.resume();
    }
    // A write of this process moves the counter: the next read reads it again.
    await stream.poller.pause();
    try {
      await write('POST', path, { title: 'Kept counter, edited here' });
      capacity.reset();
      expect((await get(path)).text).toContain('edited here');
      expect(capacity.snapshot().commands).toEqual({ GetItemCommand: 1, QueryCommand: 1 });
    } finally {
      stream.poller.resume();
    }
  });
});

describe('a counter that moved a moment ago', () => {
  it('tags answers with the digest of their body until the table has settled, and a 304 then gives the scoped tag', async () => {
    process.env.REVALIDATE_SETTLE_SECONDS = '3600';
    try {
      const a = await get('/categories');
      expect(a.status).toBe(200);
      // The same body, the same tag.
      expect((await get('/categories')).etag).toBe(a.etag);
      // Revalidated by computing the answer again: more than the counter is read.
      capacity.reset();
      expect((await get('/categories', a.etag)).status).toBe(304);
      expect(capacity.snapshot().requests).toBeGreaterThan(1);
      process.env.REVALIDATE_SETTLE_SECONDS = '0';
      await settled();
      const b = await get('/categories', a.etag);
      expect(b.status).toBe(304);
      expect(b.etag).not.toBe(a.etag);
      capacity.reset();
      expect((await get('/categories', b.etag)).status).toBe(304);
      expect(capacity.snapshot().requests).toBe(1);
    } finally {
      process.env.REVALIDATE_SETTLE_SECONDS = '0';
    }
  });
});
