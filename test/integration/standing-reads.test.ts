// Event lists and searches keep their count buckets while the table's change counter stands
// (lib/store/standing-reads.ts), against DynamoDB Local: a page read again at an unchanged,
// settled counter reads no bucket; once anything moved the counter (a write here, or another
// function's bump), the next page reads them again and counts the write. A request asked again
// gets the answer kept whole (lib/http/pipeline.ts) and reads only the counter.
import { beforeAll, describe, expect, it } from 'vitest';
import { capacity } from '#lib/store/db.js';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { useFreshTable } from '../support/table.js';
import { moveCounterElsewhere } from '../support/counter.js';
import { useEnv } from '../support/env.js';
import { useStreamPoller } from '../support/stream.js';
import { installTrace, trace } from '../../bench/trace.js';

// Settled one second (the clock margin) after the counter last moved: DynamoDB Local's reads are exact,
// and no terms are kept (an answer is kept only once settled past their age too: 5 s by default).
useEnv('REVALIDATE_SETTLE_SECONDS', '0');
useEnv('TERM_CACHE_SECONDS', '0');

useFreshTable('standing-reads', { stream: true });
// The consumer indexes the words a search reads, and moves the counter once more for each change.
const stream = useStreamPoller();

const SETTLE_MS = 1_100;
const settle = async () => {
  stream.poller.resume();
  await stream.drain();
  await new Promise((r) => setTimeout(r, SETTLE_MS));
};
const at = (days: number, hour: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;

let token: string;
let made = 0;
async function create(title: string): Promise<void> {
  made++;
  const res = await invoke('POST', 'en', '/events', {
    body: { title, description: 'A zebra crossing', start_date: at(3 + made, 10), end_date: at(3 + made, 12), status: 'publish' },
    token,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

let asked = 0;
/**
 * A page, with its total, its requests and how many of them read count buckets. Each asks with a
 * parameter of its own, so that no answer is kept whole (see below): the buckets are.
 */
async function page(query: Record<string, string | number>) {
  installTrace();
  trace.reset();
  capacity.reset();
  const res = await invoke('GET', 'en', '/events', { query: { per_page: 2, ...query, asked: ++asked } });
  const used = capacity.snapshot();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const buckets = trace.snapshot().filter((e) => e.command === 'Query' && e.target.startsWith('base COUNT#')).length;
  return { total: Number(res.body.total), buckets, requests: used.requests };
}

describe('count buckets kept while the counter stands', () => {
  beforeAll(async () => {
    token = await roleToken('editor', 'standing-editor');
    for (let i = 0; i < 3; i++) await create(`Standing ${i}`);
  });

  for (const [name, query] of [
    ['a list page', {}],
    ['a search', { search: 'zebra' }],
  ] as const) {
    it(`reads ${name}'s buckets once while nothing moves the counter, and again with every write`, async () => {
      await settle();
      const first = await page(query);
      expect(first.buckets).toBe(1);
      const again = await page(query);
      expect(again.total).toBe(first.total);
      // The counter, the index and the records.
      expect(again.buckets).toBe(0);
      expect(again.requests).toBe(3);

      // A write through this API: the next page counts it (a search among the recent writes, until
      // the consumer has indexed it), reading the buckets again.
      // (The consumer waits meanwhile: its requests would be counted with the page's.)
      await stream.poller.pause();
      await create('Standing zebra, added');
      // Not kept while the counter has not settled (here: for a minute), since a bucket read may lag the write.
      process.env.REVALIDATE_SETTLE_SECONDS = '60';
      try {
        const written = await page(query);
        expect(written.total).toBe(first.total + 1);
        expect(written.buckets).toBe(1);
        expect((await page(query)).buckets).toBe(1);
      } finally {
        process.env.REVALIDATE_SETTLE_SECONDS = '0';
      }

      // Settled, kept again; then another function moves the counter (this process never read it
      // moving): the buckets are read again.
      await settle();
      await page(query);
      expect((await page(query)).buckets).toBe(0);
      await moveCounterElsewhere(3, Date.now() - 60_000);
      const moved = await page(query);
      expect(moved.buckets).toBe(1);
      expect(moved.total).toBe(first.total + 1);
    });
  }
});

/** The same request as a client sends it again: its answer, entity tag and DynamoDB requests. */
async function same(method = 'GET') {
  capacity.reset();
  const res = await invoke(method, 'en', '/events', { query: { per_page: 2, search: 'crossing' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { body: res.body, etag: res.headers.etag, requests: capacity.snapshot().requests };
}

describe('list answers kept while the counter stands', () => {
  it('answers a request asked before from the kept answer, reading only the counter, until a write moves it', async () => {
    await settle();
    const first = await same();
    expect(first.requests).toBeGreaterThanOrEqual(3);
    // Asked once: not kept (each new request would otherwise push out the answers asked again).
    const second = await same();
    expect(second.requests).toBeGreaterThanOrEqual(3);
    const third = await same();
    expect(third.requests).toBe(1);
    expect(third.body).toEqual(second.body);
    expect(third.etag).toBe(second.etag);
    // HEAD shares the answer and its tag, without the body (encoded for each request).
    const head = await same('HEAD');
    expect(head.requests).toBe(1);
    expect(head.body).toBeUndefined();
    expect(head.etag).toBe(second.etag);

    await stream.poller.pause();
    await create('Standing crossing, added later');
    const written = await same();
    expect(written.requests).toBeGreaterThanOrEqual(3);
    expect(Number(written.body.total)).toBe(Number(second.body.total) + 1);
    expect(written.etag).not.toBe(second.etag);

    // Another function moves the counter: the kept answer is not given again.
    await settle();
    await same();
    expect((await same()).requests).toBe(1);
    await moveCounterElsewhere(3, Date.now() - 60_000);
    expect((await same()).requests).toBeGreaterThanOrEqual(3);
  });

  it('keeps nothing while the counter has not settled', async () => {
    await stream.poller.pause();
    await create('Standing crossing, unsettled');
    process.env.REVALIDATE_SETTLE_SECONDS = '60';
    try {
      for (let i = 0; i < 3; i++) expect((await same()).requests).toBeGreaterThanOrEqual(3);
    } finally {
      process.env.REVALIDATE_SETTLE_SECONDS = '0';
      stream.poller.resume();
    }
  });
});
