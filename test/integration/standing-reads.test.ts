// Event lists and searches keep their count buckets while the table's change counter stands
// (lib/store/standing-reads.ts), against DynamoDB Local: a page read again at an unchanged,
// settled counter reads no bucket; once anything moved the counter (a write here, or another
// function's bump), the next page reads them again and counts the write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { capacity } from '#lib/store/db.js';
import { roleToken } from '../support/tokens.js';
import { invoke } from '#lib/local/invoke.js';
import { useFreshTable } from '../support/table.js';
import { moveCounterElsewhere } from '../support/counter.js';
import { useStreamPoller } from '../support/stream.js';
import { installTrace, trace } from '../../bench/trace.js';

// Settled one second (the clock margin) after the counter last moved: DynamoDB Local's reads are exact.
const saved = process.env.REVALIDATE_SETTLE_SECONDS;
beforeAll(() => {
  process.env.REVALIDATE_SETTLE_SECONDS = '0';
  resetConfig();
});
afterAll(() => {
  if (saved === undefined) delete process.env.REVALIDATE_SETTLE_SECONDS;
  else process.env.REVALIDATE_SETTLE_SECONDS = saved;
  resetConfig();
});

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

/** A page, with its total, its requests and how many of them read count buckets. */
async function page(query: Record<string, string | number>) {
  installTrace();
  trace.reset();
  capacity.reset();
  const res = await invoke('GET', 'en', '/events', { query: { per_page: 2, ...query } });
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
