// Bursts of creates sent all at once (a smaller `npm run bench:storms`), through the handler
// modules with their functions' timeouts, against DynamoDB Local: nearly all succeed, the rest
// answer a retryable error having written nothing, and every count read back equals the records
// counted one by one. Also under DynamoDB's own answer to transactions that meet on an item (it
// refuses them; DynamoDB Local queues them): creates then spread their month's counts over shards,
// which a list total sums.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { keys } from '#lib/store/keys.js';
import type { EventItem, VenueItem } from '#lib/store/items.js';
import { roleToken } from '../support/tokens.js';
import { invoke, type ApiResult } from '#lib/local/invoke.js';
import { refuseConflicts, type Refusals } from '../../bench/conflicts.js';
import { useFreshTable } from '../support/table.js';
import { storedItem } from '../support/stored.js';

useFreshTable('bursts');

let token: string;
let refusals: Refusals;
beforeAll(async () => {
  token = await roleToken('editor', 'bursts-editor');
  refusals = refuseConflicts(db());
  refusals.on = false;
  // Warms the handlers and registers the token's user.
  expect((await call('POST', '/events', { title: 'Warm-up', start_date: '2033-12-01 10:00:00', end_date: '2033-12-01 11:00:00' })).status).toBe(201);
});
afterEach(() => {
  refusals.on = false;
});

/** A request as the editor, or with `anonymous` as anyone. */
const call = (method: string, path: string, body?: unknown, query?: Record<string, string | number>, anonymous = false): Promise<ApiResult> =>
  invoke(method, 'en', path, { body, query, token: anonymous ? undefined : token });

/** `n` creates in `month`, all sent at once: the successes' ids, and the statuses of the rest. */
async function burst(n: number, month: string, body: (i: number) => Record<string, unknown>) {
  const day = (i: number) => `${month}-${String(1 + (i % 28)).padStart(2, '0')}`;
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => call('POST', '/events', { start_date: `${day(i)} 10:00:00`, end_date: `${day(i)} 11:00:00`, ...body(i) })));
  const made = answers.filter((a) => a.status === 201).map((a) => a.body.id as number);
  const failed = answers.filter((a) => a.status !== 201).map((a) => a.status);
  expect(made.length, `statuses of the failures: ${failed.join(', ')}`).toBeGreaterThanOrEqual(Math.ceil(0.95 * n));
  // A failure is one a client retries: a lost race (409) or an outcome to ask again for (503).
  for (const status of failed) expect([409, 503]).toContain(status);
  expect(new Set(made).size).toBe(made.length);
  // The records one by one: each success is stored.
  const records = await Promise.all(made.map((id) => storedItem<EventItem>(keys.post(id))));
  expect(records.every((r) => r?.kind === 'event')).toBe(true);
  return made;
}

/** A month's list total and ids, as anonymous clients see them (`extra`: a filter). */
async function listed(month: string, extra: Record<string, string | number> = {}): Promise<{ total: number; ids: number[] }> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const res = await call('GET', '/events', undefined, { start_date: `${month}-01`, end_date: `${month}-28 23:59:59`, per_page: 50, page, ...extra }, true);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...(res.body.events as { id: number }[]).map((e) => e.id));
    if (ids.length >= res.body.total) return { total: res.body.total, ids };
  }
}

describe('a burst of creates that share a venue and terms', () => {
  it('nearly all succeed, and every count equals the records', async () => {
    const venue = (await call('POST', '/venues', { venue: 'Burst Hall' })).body.id as number;
    const category = (await call('POST', '/categories', { name: 'Burst category' })).body.id as number;
    const tag = (await call('POST', '/tags', { name: 'Burst tag' })).body.id as number;
    const month = '2034-01';
    const made = await burst(60, month, (i) => ({ title: `Burst ${i}`, venue, categories: [category], tags: [tag] }));
    const all = await listed(month);
    // Exactly the successes are stored: a failure wrote nothing.
    expect(all.total).toBe(made.length);
    expect([...all.ids].sort((a, b) => a - b)).toEqual([...made].sort((a, b) => a - b));
    const filters: Record<string, number>[] = [{ venue }, { categories: category }, { tags: tag }];
    for (const filter of filters) expect((await listed(month, filter)).total).toBe(made.length);
    expect((await call('GET', `/categories/${category}`)).body.count).toBe(made.length);
    expect((await call('GET', `/tags/${tag}`)).body.count).toBe(made.length);
    expect((await storedItem<VenueItem>(keys.post(venue)))?.linkedEvents).toBe(made.length);
  });

  it('one title: each gets its own slug in its first attempt', async () => {
    const made = await burst(40, '2034-02', () => ({ title: 'Burst one title' }));
    const slugs = await Promise.all(made.map(async (id) => (await storedItem<EventItem>(keys.post(id)))!.slug));
    expect(new Set(slugs).size).toBe(made.length);
    expect(slugs).toContain('burst-one-title');
    expect((await listed('2034-02')).total).toBe(made.length);
  });
});

describe('under DynamoDB’s answer to transactions that meet on an item', () => {
  it('spreads the month’s counts over shards, and the list totals sum them exactly', async () => {
    refusals.on = true;
    const before = refusals.transactions;
    const month = '2034-03';
    const made = await burst(40, month, (i) => ({ title: `Refused ${i}`, featured: i % 2 === 0 }));
    refusals.on = false;
    expect(refusals.transactions).toBeGreaterThan(before);
    // The month's bucket of the whole list has shards besides itself.
    const { Items = [] } = await db().send(
      new ScanCommand({
        TableName: config().tableName,
        FilterExpression: 'pk = :pk AND begins_with(sk, :m)',
        ExpressionAttributeValues: { ':pk': 'COUNT#LIST#event#en#publish', ':m': month },
      }),
    );
    expect(Items.some((b) => String(b.sk).includes('#'))).toBe(true);
    expect((await listed(month)).total).toBe(made.length);
    const featured = (await Promise.all(made.map((id) => storedItem<EventItem>(keys.post(id))))).filter((e) => e!.featured).length;
    expect((await listed(month, { featured: 'true' })).total).toBe(featured);
    expect((await listed(month, { featured: 'false' })).total).toBe(made.length - featured);
    // A window that ends inside the month counts its shards' days too.
    const firstWeek = await call('GET', '/events', undefined, { start_date: `${month}-01`, end_date: `${month}-07 23:59:59`, per_page: 50 }, true);
    const inWeek = (await Promise.all(made.map((id) => storedItem<EventItem>(keys.post(id))))).filter((e) => e!.utcStart < `${month}-08`).length;
    expect(firstWeek.body.total).toBe(inWeek);
  });
});
