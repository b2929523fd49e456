// The handler modules, called in-process with the payload-2.0 events API Gateway would send,
// against DynamoDB Local: exact term counts under concurrent writes, the cost rules of docs/design.md §4.2
// (measured with the store's capacity tally), and writes that fail leaving nothing behind.
import { invoke } from '#lib/local/invoke.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { capacity, type CapacityTally } from '#lib/store/db.js';
import { readValidator } from '#lib/store/validators.js';
import { roleToken } from '../support/tokens.js';
import { getItem } from '#lib/store/reads.js';
import { keys } from '#lib/store/keys.js';
import { useFreshTable } from '../support/table.js';

let editorToken: string;
beforeAll(async () => {
  editorToken = await roleToken('editor', 'handlers-editor');
});

interface Result {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

/** One request through the operation's handler module, as API Gateway would deliver it. */
async function call(method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number>; editor?: boolean } = {}): Promise<Result> {
  return invoke(method, 'en', path, { body: opts.body, query: opts.query, token: opts.editor ? editorToken : undefined });
}

/** `YYYY-MM-DD HH:MM:SS` (UTC, the test site's zone) `days` days and `hours` hours from now. */
function wall(days: number, hours = 0): string {
  const d = new Date(Date.now() + days * 86_400_000 + hours * 3_600_000);
  d.setUTCMinutes(0, 0, 0);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

async function createEvent(body: Record<string, unknown>): Promise<any> {
  const res = await call('POST', '/events', { editor: true, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/**
 * Runs `fn` with a clean capacity tally and returns what it cost, in a warm function: one that read
 * the table's change counter a moment ago, which tags reads without reading it again.
 */
async function measure<T>(fn: () => Promise<T>): Promise<{ result: T; cost: CapacityTally }> {
  await readValidator();
  capacity.reset();
  const result = await fn();
  return { result, cost: capacity.snapshot() };
}

describe('term counts under concurrent writes', () => {
  useFreshTable('handlers-count');

  it('stays exact: 20 published events created in parallel, 5 trashed in parallel -> 15', async () => {
    const created = await call('POST', '/categories', { editor: true, body: { name: 'Concurrency' } });
    expect(created.status).toBe(201);
    const category = created.body.id as number;
    expect(created.body.count).toBe(0);

    // A create that still loses the race after its retries answers 409 and writes nothing; a
    // client sends it again, as the message says.
    const create = async (i: number) => {
      for (let attempt = 1; ; attempt++) {
        const r = await call('POST', '/events', {
          editor: true,
          body: { title: `Parallel event ${i}`, start_date: wall(10, i), end_date: wall(10, i + 1), status: 'publish', categories: [category] },
        });
        if (r.status !== 409 || attempt === 3) return r;
      }
    };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const ids = results.map((r) => r.body.id as number);
    expect(new Set(ids).size).toBe(20);
    for (const r of results) expect(r.body.categories.map((c: { id: number }) => c.id)).toEqual([category]);

    const afterCreate = await call('GET', `/categories/${category}`);
    expect(afterCreate.status).toBe(200);
    expect(afterCreate.body.count).toBe(20);

    const trashed = await Promise.all(ids.slice(0, 5).map((id) => call('DELETE', `/events/${id}`, { editor: true })));
    expect(trashed.map((r) => r.status)).toEqual(Array(5).fill(200));

    const afterTrash = await call('GET', `/categories/${category}`);
    expect(afterTrash.body.count).toBe(15);
    // The stored record agrees with what the API shows.
    expect(await getItem(keys.term(category))).toMatchObject({ count: 15 });
  });

  // Each racer that loses the slug guard retries with the next free slug; twenty of them must
  // all end up created. On a busy machine a racer may still run out of its deadline and answer
  // 409 or 503 rest_busy, having written nothing: the client sends it again, as the message says.
  it('gives 20 events with the same title, created in parallel, 20 distinct slugs', async () => {
    const N = 20;
    const create = async (i: number) => {
      const body = { title: 'Same title', start_date: wall(12, i), end_date: wall(12, i + 1) };
      let res = await call('POST', '/events', { editor: true, body });
      for (let tries = 1; (res.status === 409 || res.body?.code === 'rest_busy') && tries < 5; tries++) {
        await new Promise((ok) => setTimeout(ok, Math.random() * 500 * tries));
        res = await call('POST', '/events', { editor: true, body });
      }
      return res;
    };
    const results = await Promise.all(Array.from({ length: N }, (_, i) => create(i)));
    const failed = results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body?.code}`);
    expect(failed, `${failed.length} of ${N} creates failed`).toEqual([]);
    const slugs = results.map((r) => r.body.slug as string);
    expect(new Set(slugs).size).toBe(N);
    expect(slugs).toContain('same-title');
  });
});

describe('cost rules (docs/design.md §4.2)', () => {
  useFreshTable('handlers-cost');

  // Every read here reads its terms: kept terms (lib/logic/term-cache.ts) would make a read's
  // requests depend on how long the seeding between two measurements took.
  let termCacheSeconds: string | undefined;
  beforeAll(() => {
    termCacheSeconds = process.env.TERM_CACHE_SECONDS;
    process.env.TERM_CACHE_SECONDS = '0';
    resetConfig();
  });
  afterAll(() => {
    if (termCacheSeconds === undefined) delete process.env.TERM_CACHE_SECONDS;
    else process.env.TERM_CACHE_SECONDS = termCacheSeconds;
    resetConfig();
  });

  let venue: number;
  let organizer: number;
  let category: number;
  let tag: number;
  let seeded = 0;

  /** Published events in the default window, each linked to a venue, an organizer and two terms. */
  async function seed(n: number): Promise<any[]> {
    const out: any[] = [];
    for (let i = 0; i < n; i += 10) {
      const chunk = await Promise.all(
        Array.from({ length: Math.min(10, n - i) }, (_, j) => {
          const k = seeded + i + j;
          return createEvent({
            title: `Seeded event ${k}`,
            start_date: wall(20 + (k % 200), k % 24),
            end_date: wall(20 + (k % 200), (k % 24) + 2),
            status: 'publish',
            venue: venue,
            organizer: [organizer],
          });
        }),
      );
      out.push(...chunk);
    }
    seeded += n;
    return out;
  }

  beforeAll(async () => {
    venue = (await call('POST', '/venues', { editor: true, body: { venue: 'Cost Hall', city: 'Vilnius' } })).body.id;
    organizer = (await call('POST', '/organizers', { editor: true, body: { organizer: 'Cost Org' } })).body.id;
    category = (await call('POST', '/categories', { editor: true, body: { name: 'Cost category' } })).body.id;
    tag = (await call('POST', '/tags', { editor: true, body: { name: 'Cost tag' } })).body.id;
    expect([venue, organizer, category, tag].every((id) => Number.isInteger(id))).toBe(true);
  });

  /** The figures of the two measurements, printed at the end for the report. */
  const figures: Record<string, CapacityTally> = {};

  it('reads by id, by slug and a list page at constant request counts as the table grows', async () => {
    // One fully linked event (venue, organizer, category, tag) to read back.
    const target = await createEvent({
      title: 'Measured event',
      start_date: wall(15),
      end_date: wall(15, 2),
      status: 'publish',
      venue,
      organizer: [organizer],
      categories: [category],
      tags: [tag],
    });
    await seed(30);

    const readById = async () => {
      const res = await call('GET', `/events/${target.id}`);
      expect(res.status).toBe(200);
      expect(res.body.venue.id).toBe(venue);
      expect(res.body.organizer.map((o: { id: number }) => o.id)).toEqual([organizer]);
      expect(res.body.categories.map((c: { id: number }) => c.id)).toEqual([category]);
      expect(res.body.tags.map((t: { id: number }) => t.id)).toEqual([tag]);
    };
    const readBySlug = async () => {
      const res = await call('GET', `/events/by-slug/${target.slug}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(target.id);
      expect(res.body.venue.id).toBe(venue);
    };
    const listPage = async () => {
      const res = await call('GET', '/events', { query: { per_page: 5 } });
      expect(res.status).toBe(200);
      expect(res.body.events).toHaveLength(5);
      return res.body.total as number;
    };

    const small = {
      byId: (await measure(readById)).cost,
      bySlug: (await measure(readBySlug)).cost,
      list: await measure(listPage),
    };
    expect(small.list.result).toBe(31);

    await seed(120);
    const large = {
      byId: (await measure(readById)).cost,
      bySlug: (await measure(readBySlug)).cost,
      list: await measure(listPage),
    };
    expect(large.list.result).toBe(151);

    Object.assign(figures, {
      'GET /events/{id} (31 events)': small.byId,
      'GET /events/{id} (151 events)': large.byId,
      'GET /events/by-slug/{slug} (31 events)': small.bySlug,
      'GET /events/by-slug/{slug} (151 events)': large.bySlug,
      'GET /events?per_page=5 (31 events)': small.list.cost,
      'GET /events?per_page=5 (151 events)': large.list.cost,
    });
    console.info(`[cost] ${JSON.stringify(figures, null, 2)}`);

    for (const cost of [small.byId, small.bySlug, small.list.cost, large.byId, large.bySlug, large.list.cost]) {
      expect(cost.commands.ScanCommand ?? 0).toBe(0);
      expect(Object.keys(cost.commands).filter((c) => c.startsWith('Scan'))).toEqual([]);
    }
    // A read by id or slug: the record, then one batch of its linked records (its entity tag takes
    // the change counter as the function read it a moment ago, lib/store/validators.ts).
    expect(small.byId.requests).toBe(2);
    expect(small.bySlug.requests).toBe(2);
    expect(large.byId).toMatchObject({ requests: small.byId.requests, commands: small.byId.commands });
    expect(large.bySlug).toMatchObject({ requests: small.bySlug.requests, commands: small.bySlug.commands });
    expect(large.byId.read).toBe(small.byId.read);
    expect(large.bySlug.read).toBe(small.bySlug.read);
    // A list page: as many requests whatever the table's size, and reads that barely grow (the
    // total count still reads the keys of the window).
    expect(large.list.cost.requests).toBe(small.list.cost.requests);
    expect(large.list.cost.commands).toEqual(small.list.cost.commands);
    expect(small.list.cost.read).toBeGreaterThan(0);
    expect(large.list.cost.read).toBeLessThanOrEqual(small.list.cost.read * 1.5);
    // It writes 150 events first: on a shared, busy DynamoDB Local that alone can take 20 s.
  }, 120_000);
});

describe('a failed write leaves nothing behind', () => {
  useFreshTable('handlers-failed');

  it('POST /events with an inline new venue and an unknown category id is 400 and creates no venue', async () => {
    const doomed = (category: number) => ({
      title: 'Doomed event',
      start_date: wall(5),
      end_date: wall(5, 2),
      status: 'publish',
      venue: { venue: 'Doomed Hall', city: 'Kaunas' },
      categories: [category],
    });
    const res = await call('POST', '/events', { editor: true, body: doomed(987654) });
    expect(res.status).toBe(400);
    expect(res.body.data.status).toBe(400);

    const venues = await call('GET', '/venues', { editor: true });
    expect(venues.status).toBe(200);
    expect(venues.body.venues).toEqual([]);
    expect(venues.body.total).toBe(0);
    expect(await getItem(keys.slugGuard('venue', 'en', 'doomed-hall'))).toBeUndefined();
    const events = await call('GET', '/events', { editor: true });
    expect(events.body.total).toBe(0);
    expect(await getItem(keys.slugGuard('event', 'en', 'doomed-event'))).toBeUndefined();

    // The same request with an existing category writes the event and its venue together.
    const cat = await call('POST', '/categories', { editor: true, body: { name: 'Real' } });
    const ok = await call('POST', '/events', { editor: true, body: doomed(cat.body.id) });
    expect(ok.status).toBe(201);
    const after = await call('GET', '/venues', { editor: true });
    expect(after.body.venues.map((v: { venue: string }) => v.venue)).toEqual(['Doomed Hall']);
    expect(ok.body.venue.id).toBe(after.body.venues[0].id);
  });
});
