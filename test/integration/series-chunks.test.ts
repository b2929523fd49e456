// A series' occurrences written many to a transaction (lib/logic/series-chunks.ts), on DynamoDB
// Local, the consumer's call made here: every occurrence once, with the counts, slugs and create
// keys single creates give; a slug taken here or a second call at the same time leaves the
// occurrences as creates of their own would.
import { beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#lib/local/invoke.js';
import { continueSeries } from '#lib/logic/series.js';
import { occurrenceKey } from '#lib/logic/series-rules.js';
import { capacity } from '#lib/store/db.js';
import { earlierId } from '#lib/store/create-ids.js';
import { recentState } from '#lib/store/recent-writes.js';
import { backfillSearch } from '#lib/stream/backfill.js';
import { keys } from '#lib/store/keys.js';
import type { EventItem } from '#lib/store/items.js';
import { roleToken } from '../support/tokens.js';
import { useFreshTable } from '../support/table.js';
import { storedItem } from '../support/stored.js';
import { seriesEvents } from '../support/series.js';

useFreshTable('series-chunks');

let token: string;
let venue: number;
let category: number;
beforeAll(async () => {
  token = await roleToken('editor', 'series-chunks');
  venue = (await invoke('POST', 'en', '/venues', { token, body: { venue: 'Chunk Hall' } })).body.id;
  category = (await invoke('POST', 'en', '/categories', { token, body: { name: 'Chunked' } })).body.id;
});

const call = (method: string, path: string, query: Record<string, string | number> = {}, body?: unknown) => invoke(method, 'en', path, { token, query, body });

async function series(title: string, start: string, count: number): Promise<number> {
  const res = await call(
    'POST',
    '/events',
    {},
    {
      title,
      start_date: `${start} 10:00:00`,
      end_date: `${start} 11:00:00`,
      venue,
      categories: [category],
      recurrence: [`RRULE:FREQ=DAILY;COUNT=${count}`],
    },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** A series created as sent, its occurrences written by the consumer's call made here: its first event's id. */
async function written(body: Record<string, unknown>): Promise<number> {
  const res = await call('POST', '/events', {}, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await continueSeries(res.body.id);
  return res.body.id;
}

const eventsOf = (first: number) => seriesEvents(first, (page) => call('GET', '/events', { start_date: '2000-01-01', end_date: '2100-01-01', per_page: 50, page }));
const total = async (start: string, end: string) => Number((await call('GET', '/events', { start_date: start, end_date: end, categories: category })).headers['X-TEC-Total']);
const count = async () => (await call('GET', `/categories/${category}`)).body.count as number;

describe("a series' occurrences, many to a transaction", () => {
  it('writes every occurrence once, in a few transactions, with the counts, slugs and create keys of single creates', async () => {
    const before = await count();
    const first = await series('Daily chunk', '2031-01-20', 45);
    capacity.reset();
    await continueSeries(first);
    const used = capacity.snapshot().commands;
    // 44 occurrences: a handful of transactions, where creates of their own took 44.
    expect(used.TransactWriteItemsCommand).toBeLessThanOrEqual(5);
    const events = await eventsOf(first);
    expect(events.map((e) => e.start_date.slice(0, 10))).toEqual([...Array(45).keys()].map((i) => new Date(Date.UTC(2031, 0, 20 + i)).toISOString().slice(0, 10)));
    expect(new Set(events.map((e) => e.id)).size).toBe(45);
    expect(events[1].slug).toBe('daily-chunk-2031-01-21');
    expect(events.every((e) => e.venue?.id === venue && e.series_id === first)).toBe(true);
    // The month buckets, the category's count and its list agree with the events.
    expect(await total('2031-01-01', '2031-01-31')).toBe(12);
    expect(await total('2031-02-01', '2031-02-28')).toBe(28);
    expect(await total('2031-03-01', '2031-03-31')).toBe(5);
    expect(await count()).toBe(before + 45);
    expect((await storedItem<EventItem>(keys.post(first)))?.series).toMatchObject({ made: 45, total: 45 });
    // Each occurrence's create key names it, as a create of its own keeps it.
    const last = await storedItem<EventItem>(keys.post(events[44].id));
    expect(await earlierId(occurrenceKey(first, last!.utcStart))).toBe(events[44].id);
    // No client wrote them: no recent writes for searches to read, which find them once they are indexed.
    const recent = new Set((await recentState('en')).ids);
    expect(events.slice(1).filter((e) => recent.has(e.id))).toEqual([]);
    await backfillSearch();
    expect(Number((await call('GET', '/events', { search: 'chunk', start_date: '2031-01-01', end_date: '2031-12-31' })).headers['X-TEC-Total'])).toBe(45);
  });

  it('writes the chunk that holds a slug taken here one create at a time: that occurrence takes the next slug', async () => {
    const taken = await call(
      'POST',
      '/events',
      {},
      { title: 'Not of the series', slug: 'market-day-2032-05-03', start_date: '2032-06-01 10:00:00', end_date: '2032-06-01 11:00:00' },
    );
    expect(taken.status).toBe(201);
    const before = await count();
    const first = await series('Market day', '2032-05-01', 6);
    await continueSeries(first);
    const events = await eventsOf(first);
    expect(events.map((e) => e.slug)).toEqual([
      'market-day',
      'market-day-2032-05-02',
      'market-day-2032-05-03-2',
      'market-day-2032-05-04',
      'market-day-2032-05-05',
      'market-day-2032-05-06',
    ]);
    expect(await count()).toBe(before + 6);
  });

  it('gives the second occurrence of a day the next slug, and writes an occurrence too large to share a transaction on its own', async () => {
    const twice = await written({
      title: 'Twice a day',
      start_date: '2034-06-01 09:00:00',
      end_date: '2034-06-01 10:00:00',
      timezone: 'Europe/Vilnius',
      recurrence: ['RRULE:FREQ=DAILY;BYHOUR=9,17;COUNT=6'],
    });
    // Which of a day's two takes the plain slug is the race of their creates.
    expect((await eventsOf(twice)).map((e) => e.slug).sort()).toEqual([
      'twice-a-day',
      'twice-a-day-2034-06-01',
      'twice-a-day-2034-06-02',
      'twice-a-day-2034-06-02-2',
      'twice-a-day-2034-06-03',
      'twice-a-day-2034-06-03-2',
    ]);
    // 31 tags: an occurrence's create takes 99 items, so it and its create key and the progress do not fit one transaction.
    const tags: number[] = [];
    for (let i = 0; i < 31; i++) tags.push((await call('POST', '/tags', {}, { name: `Many ${i}` })).body.id);
    const many = await written({ title: 'Many tags', start_date: '2034-07-01 10:00:00', end_date: '2034-07-01 11:00:00', tags, recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] });
    const events = await eventsOf(many);
    expect(events).toHaveLength(3);
    expect(events.every((e) => e.tags.length === 31)).toBe(true);
    expect((await call('GET', `/tags/${tags[0]}`)).body.count).toBe(3);
  });

  it('raises the longest duration the counts know to the longest occurrence: one across the change of the clocks lasts an hour more', async () => {
    // Three days from 10:00 to 10:00 in Vilnius: the one over the last Sunday of October lasts 73 hours.
    await written({
      title: 'Long weekend',
      start_date: '2035-10-13 10:00:00',
      end_date: '2035-10-16 10:00:00',
      timezone: 'Europe/Vilnius',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    const stats = await storedItem<{ seconds: number }>(keys.langStats('en'));
    expect(stats?.seconds).toBeGreaterThanOrEqual(73 * 3600);
  });

  it('writes each occurrence once when two calls write the same series at the same time', async () => {
    const before = await count();
    const first = await series('Twice called', '2033-03-01', 60);
    await Promise.all([continueSeries(first), continueSeries(first)]);
    const events = await eventsOf(first);
    expect(events).toHaveLength(60);
    expect(new Set(events.map((e) => e.start_date)).size).toBe(60);
    expect(await count()).toBe(before + 60);
    expect(await total('2033-03-01', '2033-04-30')).toBe(60);
  });
});
