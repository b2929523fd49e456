// docs/design.md §4.2: "A list page's item reads grow with per_page, not with the size of the table. That
// holds for the default window and for filters by date, category, tag, venue, organizer and
// featured." One page (per_page=5) of each GET /events variant is measured in-process with the
// store's capacity tally (requests and consumed read capacity, both deterministic) on a small
// calendar, then again after ten times as many events have been added with the same linked
// records. Nothing here looks at time.
import { invoke } from '#lib/local/invoke.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { capacity, type CapacityTally } from '#lib/store/db.js';
import { roleToken } from '../support/tokens.js';
import { useFreshTable } from '../support/table.js';

interface Result {
  status: number;
  body: any;
}

let editorToken: string;

/** One request through the operation's handler module, as API Gateway would deliver it. */
async function call(method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number>; editor?: boolean } = {}): Promise<Result> {
  return invoke(method, 'en', path, { body: opts.body, query: opts.query, token: opts.editor ? editorToken : undefined });
}

/** 'YYYY-MM-DD' of today (UTC, the test site's zone) plus `days`. */
function day(days: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
}

interface Seeded {
  id: number;
  day: number;
  hour: number;
  status: 'publish' | 'draft';
  category: boolean;
  tag: boolean;
  featured: boolean;
}

interface Variant {
  name: string;
  query: Record<string, string | number>;
  editor?: boolean;
  /** Which seeded events the variant lists. */
  matches: (e: Seeded) => boolean;
}

describe('GET /events page cost does not grow with the table (docs/design.md §4.2)', () => {
  useFreshTable('list-cost');

  let venue = 0;
  let organizer = 0;
  let category = 0;
  let tag = 0;
  const seeded: Seeded[] = [];

  beforeAll(async () => {
    editorToken = await roleToken('editor', 'list-cost-editor');
    const make = async (path: string, body: Record<string, unknown>) => {
      const res = await call('POST', path, { editor: true, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as number;
    };
    venue = await make('/venues', { venue: 'Cost Hall', city: 'Vilnius', geo_lat: 54.68, geo_lng: 25.28 });
    organizer = await make('/organizers', { organizer: 'Cost Organizer' });
    category = await make('/categories', { name: 'Cost Category' });
    tag = await make('/tags', { name: 'Cost Tag' });
  });

  /** `n` events on the given days, every one at the venue and organizer, some in the category and tag, some featured, every fifth a draft. */
  async function seed(days: number[]): Promise<void> {
    const chunk = 8;
    for (let i = 0; i < days.length; i += chunk) {
      const made = await Promise.all(
        days.slice(i, i + chunk).map(async (d, j) => {
          const k = seeded.length + i + j;
          const e: Omit<Seeded, 'id'> = {
            day: d,
            hour: 8 + (k % 10),
            status: k % 5 === 4 ? 'draft' : 'publish',
            category: k % 2 === 0,
            tag: k % 3 === 0,
            featured: k % 4 === 1,
          };
          const hour = String(e.hour).padStart(2, '0');
          // Eight creates of one venue, organizer and terms at once: on a busy machine one may
          // still lose its race after the handler's retries (409, nothing written); a client
          // sends it again.
          const send = () =>
            call('POST', '/events', {
              editor: true,
              body: {
                title: `Cost event ${k}`,
                start_date: `${day(d)} ${hour}:00:00`,
                end_date: `${day(d)} ${hour}:45:00`,
                status: e.status,
                venue,
                organizer: [organizer],
                ...(e.category ? { categories: [category] } : {}),
                ...(e.tag ? { tags: [tag] } : {}),
                featured: e.featured,
              },
            });
          let res = await send();
          for (let attempt = 1; res.status === 409 && attempt < 5; attempt++) {
            await new Promise((r) => setTimeout(r, 200 * attempt));
            res = await send();
          }
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          return { ...e, id: res.body.id as number };
        }),
      );
      seeded.push(...made);
    }
  }

  const published = (e: Seeded) => e.status === 'publish';
  const inWindow = (e: Seeded) => e.day >= 10 && e.day <= 40;
  const variants: Variant[] = [
    { name: 'default window', query: {}, matches: published },
    { name: 'date window', query: { start_date: day(10), end_date: day(40) }, matches: (e) => published(e) && inWindow(e) },
    { name: 'category', query: { categories: 0 }, matches: (e) => published(e) && e.category },
    { name: 'tag', query: { tags: 0 }, matches: (e) => published(e) && e.tag },
    { name: 'venue', query: { venue: 0 }, matches: published },
    { name: 'organizer', query: { organizer: 0 }, matches: published },
    { name: 'featured', query: { featured: 'true' }, matches: (e) => published(e) && e.featured },
    { name: 'status=any (editor)', query: { status: 'any' }, editor: true, matches: () => true },
    { name: 'category + date window', query: { categories: 0, start_date: day(10), end_date: day(40) }, matches: (e) => published(e) && e.category && inWindow(e) },
  ];

  /** The variant's query with the ids of this table's linked records. */
  const queryOf = (v: Variant) => {
    const ids: Record<string, number> = { categories: category, tags: tag, venue, organizer };
    return Object.fromEntries(Object.entries(v.query).map(([k, val]) => [k, k in ids ? ids[k]! : val]));
  };

  /** One page of each variant: its cost, after checking the page and its total. */
  async function measureAll(): Promise<Record<string, CapacityTally>> {
    const out: Record<string, CapacityTally> = {};
    for (const v of variants) {
      const expected = seeded.filter(v.matches).sort((a, b) => a.day - b.day || a.hour - b.hour || a.id - b.id);
      // A first call warms what a function keeps between invocations (a user's role is checked
      // against their credential record at most once a minute), so that both sizes measure the same.
      await call('GET', '/events', { query: { ...queryOf(v), per_page: 5 }, editor: v.editor });
      capacity.reset();
      const res = await call('GET', '/events', { query: { ...queryOf(v), per_page: 5 }, editor: v.editor });
      out[v.name] = capacity.snapshot();
      expect(res.status, `${v.name}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.total, v.name).toBe(expected.length);
      expect(
        res.body.events.map((e: { id: number }) => e.id),
        v.name,
      ).toEqual(expected.slice(0, 5).map((e) => e.id));
    }
    return out;
  }

  it('per_page=5 of every variant: the same requests (one correction aside) and bounded read capacity at 40 and at 440 events; no Scan', async () => {
    // Small: 40 events over about two months.
    await seed(Array.from({ length: 40 }, (_, i) => 3 + Math.floor(i * 1.5)));
    const small = await measureAll();

    // Large: 400 more over 24 months, with the same venue, organizer, category and tag.
    await seed(Array.from({ length: 400 }, (_, i) => 1 + Math.floor(i * 1.8)));
    expect(seeded).toHaveLength(440);
    const large = await measureAll();

    const rows = variants.map((v) => ({
      variant: v.name,
      small: `${small[v.name]!.requests} req, ${small[v.name]!.read} RCU ${JSON.stringify(small[v.name]!.commands)}`,
      large: `${large[v.name]!.requests} req, ${large[v.name]!.read} RCU ${JSON.stringify(large[v.name]!.commands)}`,
    }));
    console.info(`[list cost, per_page=5, 40 -> 440 events]\n${rows.map((r) => `${r.variant}: ${r.small} | ${r.large}`).join('\n')}`);

    for (const v of variants) {
      const s = small[v.name]!;
      const l = large[v.name]!;
      for (const cost of [s, l]) {
        expect(
          Object.keys(cost.commands).filter((c) => c.startsWith('Scan')),
          v.name,
        ).toEqual([]);
        expect(cost.write, v.name).toBe(0);
      }
      // The same requests whatever the table's size, but for one end-date correction: it is read
      // only when the count buckets hold events that start near the window's end.
      expect(l.requests, v.name).toBeGreaterThanOrEqual(s.requests);
      expect(l.requests, v.name).toBeLessThanOrEqual(s.requests + 1);
      expect(Object.keys(l.commands).sort(), v.name).toEqual(Object.keys(s.commands).sort());
      // Read capacity: a bound fixed by the small table, which the large table stays under.
      expect(s.read, v.name).toBeGreaterThan(0);
      const bound = s.read * 1.2 + 1;
      expect(l.read, `${v.name}: ${l.read} RCU at 440 events vs ${s.read} at 40`).toBeLessThanOrEqual(bound);
    }

    // What does grow is per_page: a longer page of the same list reads more records, with the
    // same requests.
    capacity.reset();
    const longer = await call('GET', '/events', { query: { per_page: 20 } });
    const long = capacity.snapshot();
    expect(longer.status).toBe(200);
    expect(longer.body.events).toHaveLength(20);
    console.info(`[list cost] default window per_page=20 at 440 events: ${long.requests} req, ${long.read} RCU ${JSON.stringify(long.commands)}`);
    expect(long.requests).toBe(large['default window']!.requests);
    expect(long.read).toBeGreaterThan(large['default window']!.read);
  }, 300_000);
});
