// Every request has a budget (lib/contract/budget.ts): list filters longer than it allows are a
// 400 before any DynamoDB request, the longest allowed filters stay within it, and the store
// refuses a request that would go past it (a 400 that says so), but not the work of a write that
// has begun changing records. Measured with the store's capacity tally.
import { beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#lib/local/invoke.js';
import { roleToken } from '../support/tokens.js';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { capacity, db, type CapacityTally } from '#lib/store/db.js';
import { config } from '#lib/runtime/config.js';
import { emptyTally } from '#lib/observe/capacity.js';
import { put, transact } from '#lib/store/transactions.js';
import { ApiError } from '#lib/contract/errors.js';
import { LIST_LIMITS, REQUEST_BUDGET } from '#lib/contract/budget.js';
import { POST_STATUSES } from '#lib/contract/args/common.js';
import { useFreshTable } from '../support/table.js';
import { useStreamPoller } from '../support/stream.js';
import { storedItem } from '../support/stored.js';
import { keys } from '#lib/store/keys.js';
import type { EventItem } from '#lib/store/items.js';

let editor: string;

type Query = Record<string, string | number>;
const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

/** One request through its handler, with the DynamoDB requests and capacity it used. */
async function measured(method: string, path: string, opts: { query?: Query; body?: unknown; editor?: boolean; timeoutSeconds?: number } = {}) {
  capacity.reset();
  const started = performance.now();
  const res = await invoke(method, 'en', path, { query: opts.query, body: opts.body, token: opts.editor ? editor : undefined, timeoutSeconds: opts.timeoutSeconds });
  return { ...res, ms: performance.now() - started, used: capacity.snapshot() };
}

const cost = (used: CapacityTally) => `${used.requests} requests, ${used.read} read units ${JSON.stringify(used.commands)}`;

describe('the request budget', () => {
  useFreshTable('request-budget', { stream: true });
  // The search index follows the table through the stream consumer.
  const stream = useStreamPoller();

  const venues: number[] = [];
  const organizers: number[] = [];
  const categories: number[] = [];
  const tags: number[] = [];
  const events: number[] = [];
  let fan = 0;
  /** Light past events (out of every list here), each linked to the fan tag only. */
  const fanEvents: number[] = [];

  beforeAll(async () => {
    editor = await roleToken('editor', 'request-budget-editor');
    const make = async (path: string, body: Record<string, unknown>) => {
      const res = await invoke('POST', 'en', path, { body, token: editor });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as number;
    };
    for (const i of range(LIST_LIMITS.eventFilter)) {
      venues.push(await make('/venues', { venue: `Budget Hall ${i}` }));
      organizers.push(await make('/organizers', { organizer: `Budget Organizer ${i}` }));
      categories.push(await make('/categories', { name: `Budget Category ${i}` }));
      tags.push(await make('/tags', { name: `Budget Tag ${i}` }));
    }
    fan = await make('/tags', { name: 'Budget Fan' });
    // The heaviest page: 50 published events with the longest description (two bytes a
    // character), beside events of every other status, each linked to venues, organizers and terms.
    const description = 'é'.repeat(65_535);
    const statuses = [...Array(50).fill('publish'), ...POST_STATUSES.filter((s) => s !== 'publish').flatMap((s) => [s, s])] as string[];
    const day = (i: number) => new Date(Date.now() + (3 + (i % 20)) * 86_400_000).toISOString().slice(0, 10);
    for (let i = 0; i < statuses.length; i += 6) {
      const made = await Promise.all(
        statuses.slice(i, i + 6).map((status, j) => {
          const k = i + j;
          const n = LIST_LIMITS.eventFilter;
          return make('/events', {
            title: `Budget event alpha beta gamma delta epsilon ${k}`,
            description,
            start_date: `${day(k)} 10:00:00`,
            end_date: `${day(k)} 12:00:00`,
            status,
            venue: venues[k % n],
            organizer: [organizers[k % n], organizers[(k + 1) % n]],
            categories: [categories[k % n]],
            tags: [tags[k % n]],
          });
        }),
      );
      events.push(...made);
    }
    for (let i = 0; i < 25; i += 5) {
      fanEvents.push(
        ...(await Promise.all(
          range(5, i).map((k) => make('/events', { title: `Light fan ${k}`, start_date: '2020-02-02 10:00:00', end_date: '2020-02-02 11:00:00', status: 'publish', tags: [fan] })),
        )),
      );
    }
    await stream.drain(120_000);
  }, 300_000);

  describe('filters longer than the budget allows: 400 before any DynamoDB request', () => {
    const ids = (n: number) => range(n, 1000).join(',');
    const hostile: [string, string, Query, string][] = [
      ['/events', 'venue', { venue: ids(3000) }, `venue must contain at most ${LIST_LIMITS.eventFilter} ids.`],
      ['/events', 'venue', { venue: ids(1000) }, `venue must contain at most ${LIST_LIMITS.eventFilter} ids.`],
      ['/events', 'venue', { venue: ids(LIST_LIMITS.eventFilter + 1) }, `venue must contain at most ${LIST_LIMITS.eventFilter} ids.`],
      ['/events', 'organizer', { organizer: ids(1000) }, `organizer must contain at most ${LIST_LIMITS.eventFilter} ids.`],
      ['/events', 'tags', { tags: ids(1000) }, `tags must contain at most ${LIST_LIMITS.eventFilter} ids or slugs.`],
      [
        '/events',
        'tags',
        {
          tags: range(3000)
            .map((i) => `slug-${i}`)
            .join(','),
        },
        `tags must contain at most ${LIST_LIMITS.eventFilter} ids or slugs.`,
      ],
      ['/events', 'categories', { categories: ids(1000) }, `categories must contain at most ${LIST_LIMITS.eventFilter} ids or slugs.`],
      ['/events', 'include', { include: ids(3000) }, `include must contain at most ${LIST_LIMITS.include} ids.`],
      ['/events', 'include', { include: ids(LIST_LIMITS.include + 1) }, `include must contain at most ${LIST_LIMITS.include} ids.`],
      ['/events', 'search', { search: range(LIST_LIMITS.searchWords + 1).join(' ') }, `search must contain at most ${LIST_LIMITS.searchWords} words.`],
      ['/categories', 'include', { include: ids(1000) }, `include must contain at most ${LIST_LIMITS.termIds} ids.`],
      ['/tags', 'exclude', { exclude: ids(3000) }, `exclude must contain at most ${LIST_LIMITS.termIds} ids.`],
    ];
    for (const asEditor of [false, true]) {
      for (const [path, name, query, message] of hostile) {
        const values = String(query[name]).split(/[ ,]/).length;
        it(`${asEditor ? 'editor' : 'anonymous'}: ${path} with ${values} ${name} values`, async () => {
          const res = await measured('GET', path, { query, editor: asEditor });
          expect(res.status, JSON.stringify(res.body)).toBe(400);
          expect(res.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { [name]: message } } });
          expect(res.used.requests).toBe(0);
          expect(res.ms).toBeLessThan(2_000);
        });
      }
    }

    it('a list at its limit goes on to the check that its ids exist', async () => {
      const res = await measured('GET', '/events', { query: { venue: ids(LIST_LIMITS.eventFilter) } });
      expect(res.body.code).toBe('rest_invalid_param');
      expect(res.body.data.params.venue).toMatch(/not an existing venue id/);
    });
  });

  describe('the longest allowed filters stay within the budget', () => {
    const within = (label: string, used: CapacityTally) => {
      console.info(`[request budget] ${label}: ${cost(used)}`);
      expect(used.requests, label).toBeLessThanOrEqual(REQUEST_BUDGET.requests);
      expect(used.read, label).toBeLessThanOrEqual(REQUEST_BUDGET.readUnits);
    };
    const all = () => ({ venue: venues.join(','), organizer: organizers.join(','), categories: categories.join(','), tags: tags.join(',') });

    for (const asEditor of [false, true]) {
      const who = asEditor ? 'editor, every status' : 'anonymous';
      const status: Query = asEditor ? { status: 'any' } : {};
      it(`${who}: every filter at its limit, and each alone driving the list`, async () => {
        for (const [name, query] of [
          ['all four', all()],
          ['venue', { venue: venues.join(',') }],
          ['organizer', { organizer: organizers.join(',') }],
          ['categories', { categories: categories.join(',') }],
          ['tags', { tags: tags.join(',') }],
        ] as [string, Query][]) {
          const res = await measured('GET', '/events', { query: { ...query, ...status, per_page: 50 }, editor: asEditor });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(res.body.total).toBeGreaterThan(0);
          within(`${who}, ${name}`, res.used);
        }
      });

      it(`${who}: one value with every correction of the totals, include, and searches`, async () => {
        const from = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
        const to = new Date(Date.now() + 15 * 86_400_000).toISOString().slice(0, 10);
        // Words every event has, then one that only one has: every word's partitions are read.
        const words = ['budget', 'event', 'alpha', 'beta', 'gamma', 'delta', 'epsilon', '7'];
        expect(words).toHaveLength(LIST_LIMITS.searchWords);
        for (const [name, query] of [
          [
            'one venue, a window with partial days and end bounds',
            { venue: venues[0]!, start_date: `${from} 11:00`, end_date: `${to} 11:00`, ends_after: `${from} 11:30`, strict_dates: 'true' },
          ],
          ['no filter, a window with partial days and end bounds', { start_date: `${from} 11:00`, end_date: `${to} 11:00`, ends_after: `${from} 11:30`, strict_dates: 'true' }],
          ['include at its limit', { include: events.slice(0, LIST_LIMITS.include).join(',') }],
          ['a search of the most words', { search: words.join(' ') }],
          ['a search of the most words and every filter', { search: words.join(' '), ...all() }],
          ['a search of one word and every filter', { search: 'gamma', ...all() }],
          // Ten terms or more are one phrase, as WordPress reads them: one partition, not sixty.
          ['a search of sixty terms', { search: range(60).join(' ') }],
          ['the heaviest page', { per_page: 50 }],
        ] as [string, Query][]) {
          const res = await measured('GET', '/events', { query: { ...query, ...status, per_page: 50 }, editor: asEditor });
          expect(res.status, `${name}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
          within(`${who}, ${name}`, res.used);
        }
      });

      it(`${who}: term lists with include and exclude at their limits`, async () => {
        const many = range(LIST_LIMITS.termIds - tags.length, 900_000);
        for (const path of ['/tags', '/categories']) {
          const own = path === '/tags' ? tags : categories;
          // Unknown ids are a 400 after the one batch read that finds them missing.
          const unknown = await measured('GET', path, { query: { include: [...own, ...many].join(','), hide_empty: 'false' }, editor: asEditor });
          expect(unknown.status).toBe(400);
          within(`${who}, ${path} include of ${LIST_LIMITS.termIds} ids`, unknown.used);
          const res = await measured('GET', path, { query: { include: own.join(','), exclude: own.slice(0, 2).join(','), hide_empty: 'false' }, editor: asEditor });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(res.body.total).toBe(own.length - 2);
          within(`${who}, ${path} include and exclude`, res.used);
        }
      });
    }
  });

  describe("the store's backstop", () => {
    const read = () => storedItem({ pk: 'NOTHING', sk: 'HERE' });

    it(`refuses a request's DynamoDB request past ${REQUEST_BUDGET.requests}, with a 400 that says so`, async () => {
      const used = emptyTally();
      const err = await capacity.scoped(used, async () => {
        for (const _ of range(REQUEST_BUDGET.requests)) await read();
        return read().catch((e: unknown) => e);
      });
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).body()).toMatchObject({
        code: 'rest_request_over_budget',
        data: { status: 400, budget: { requests: REQUEST_BUDGET.requests, read_units: REQUEST_BUDGET.readUnits } },
      });
      expect((err as ApiError).message).toMatch(/more than the 50 database requests one request may use; no record was changed/);
      expect(used.requests).toBe(REQUEST_BUDGET.requests);
      // Writes are never refused (a refused write could leave a change half made), and a
      // single-item write does not lift the budget of the reads.
      const after = await capacity.scoped(used, async () => {
        await db().send(new PutCommand({ TableName: config().tableName, Item: { pk: 'BUDGET#test', sk: 'SINGLE' } }));
        return read().catch((e: unknown) => e);
      });
      expect(after).toBeInstanceOf(ApiError);
      expect(used.requests).toBe(REQUEST_BUDGET.requests + 1);
      // Requests sent at once are refused alike: never more than the budget is sent.
      const atOnce = emptyTally();
      const settled = await capacity.scoped(atOnce, () => Promise.allSettled(range(REQUEST_BUDGET.requests + 10).map(read)));
      expect(settled.filter((s) => s.status === 'rejected')).toHaveLength(10);
      expect(atOnce.requests).toBe(REQUEST_BUDGET.requests);
    });

    it('refuses once the read units are spent', async () => {
      const used = { ...emptyTally(), read: REQUEST_BUDGET.readUnits };
      const err = await capacity.scoped(used, () => read().catch((e: unknown) => e));
      expect((err as ApiError).body()).toMatchObject({ code: 'rest_request_over_budget', data: { status: 400 } });
      expect((err as ApiError).message).toMatch(/more than the 5000 read units/);
      expect(used.requests).toBe(0);
    });

    it('lets a request that has begun changing records finish, and has no budget outside a request (the stream consumer)', async () => {
      const used = emptyTally();
      await capacity.scoped(used, async () => {
        await transact([put({ pk: 'BUDGET#test', sk: 'ITEM', n: 1 }, null)]);
        for (const _ of range(REQUEST_BUDGET.requests + 5)) await read();
      });
      expect(used.requests).toBe(REQUEST_BUDGET.requests + 6);
      capacity.reset();
      for (const _ of range(REQUEST_BUDGET.requests + 5)) await read();
      expect(capacity.snapshot().requests).toBe(REQUEST_BUDGET.requests + 5);
    });

    it('lists events near more venues than a request may read partitions for, and places with upcoming events, within the budget', { timeout: 120_000 }, async () => {
      const near: number[] = [];
      const count = REQUEST_BUDGET.requests + 5;
      for (let i = 0; i < count; i += 8) {
        near.push(
          ...(await Promise.all(
            range(Math.min(8, count - i), i).map((k) =>
              invoke('POST', 'en', '/venues', { body: { venue: `Budget Geo ${k}`, geo_lat: 54.6 + k / 1000, geo_lng: 25.2 }, token: editor }).then((r) => {
                expect(r.status).toBe(201);
                return r.body.id as number;
              }),
            ),
          )),
        );
      }
      const day = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
      const atNear = await Promise.all(
        [near[3], near[40]].map((venue, i) =>
          invoke('POST', 'en', '/events', {
            body: { title: `Budget near ${i}`, start_date: `${day} 10:00:00`, end_date: `${day} 11:00:00`, status: 'publish', venue },
            token: editor,
          }).then((r) => {
            expect(r.status, JSON.stringify(r.body)).toBe(201);
            return r.body.id as number;
          }),
        ),
      );
      await stream.drain(60_000);

      // Every published venue with coordinates is near a point of no coordinates (geoloc=true).
      const res = await measured('GET', '/events', { query: { geoloc: 'true', per_page: 50 } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.events.map((e: { id: number }) => e.id).sort()).toEqual([...atNear].sort());
      expect(res.body.total).toBe(2);
      expect(res.used.requests, cost(res.used)).toBeLessThanOrEqual(REQUEST_BUDGET.requests);
      // Near a point: only the first of them is within 3 km of the first geo venue.
      const close = await measured('GET', '/events', { query: { geoloc_lat: 54.6, geoloc_lng: 25.2, geoloc_radius: 3 } });
      expect(close.status, JSON.stringify(close.body)).toBe(200);
      expect(close.body.events.map((e: { id: number }) => e.id)).toEqual([atNear[0]]);

      // Places with upcoming events among more places than the budget has requests.
      const expected = [...venues, near[3], near[40]].sort((a, b) => b - a);
      for (const asEditor of [false, true]) {
        const upcoming = await measured('GET', '/venues', { query: { only_with_upcoming: 1, per_page: 50 }, editor: asEditor });
        expect(upcoming.status, JSON.stringify(upcoming.body)).toBe(200);
        expect(upcoming.body.venues.map((v: { id: number }) => v.id).sort((a: number, b: number) => b - a)).toEqual(expected);
        expect(upcoming.body.total).toBe(expected.length);
        expect(upcoming.body.rest_url).toContain('only_with_upcoming=1');
        expect(upcoming.used.requests, cost(upcoming.used)).toBeLessThanOrEqual(REQUEST_BUDGET.requests);
      }
      const organizersUpcoming = await measured('GET', '/organizers', { query: { only_with_upcoming: 1, search: 'Budget Organizer' } });
      expect(organizersUpcoming.body.organizers.map((o: { id: number }) => o.id).sort()).toEqual([...organizers].sort());
    });

    it('does not break a write that fans out: a tag of 25 events is deleted in the request', async () => {
      // The consumer waits, so that the tally holds the request's own requests only. The events
      // are light and the function gets API Gateway's longest wait, so that a loaded machine still
      // unlinks all 25 in the request (short of time, it leaves the rest to the consumer:
      // unlink-leftovers.test.ts).
      await stream.drain(60_000);
      await stream.poller.pause();
      try {
        const res = await measured('DELETE', `/tags/${fan}`, { query: { force: 'true' }, editor: true, timeoutSeconds: 29 });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        console.info(`[request budget] delete a tag of 25 events: ${cost(res.used)}`);
        expect(res.used.requests).toBeGreaterThan(REQUEST_BUDGET.requests);
        // Every event lost the tag in the request, before the consumer ran again.
        const stored = await Promise.all(fanEvents.map((id) => storedItem<EventItem>(keys.post(id))));
        expect(stored.filter((e) => e!.tags.includes(fan)).map((e) => e!.id)).toEqual([]);
      } finally {
        stream.poller.resume();
      }
    });
  });
});
