// Stored events whose fields have the wrong type or an unreadable value (written by hand, by an
// import or by an older version), through the local gateway: every read route that shows them
// answers below 500 for anonymous callers and editors, and keeps serving the well-formed events
// around them.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { keys } from '#lib/store/keys.js';
import { createAsEditor } from '../support/expect.js';
import { useGateway, type ApiOptions, type ApiResponse } from '../support/gateway.js';

const gw = useGateway({ tablePrefix: 'e2e-malformed', stream: true });

const DAY = '2033-04-';
/** What each broken event gets in place of its stored fields. */
const BREAKS: Record<string, Record<string, unknown>> = {
  'garbage start': { utcStart: 'garbage', start: 'garbage' },
  'numeric start': { utcStart: 20330405, utcEnd: 20330405, start: 20330405, end: 20330405 },
  'numeric title': { title: 12345, description: 6, excerpt: 7 },
  'wrong types': {
    allDay: 'yes',
    featured: 'no',
    cost: 'ten',
    categories: 3,
    tags: 'x',
    venues: 'v',
    organizers: { a: 1 },
    timezone: 5,
    slug: 77,
    cards: 'none',
    author: 'someone',
  },
  'missing dates': { utcStart: undefined, utcEnd: undefined, start: undefined, end: undefined, date: undefined, date_utc: undefined, modified_utc: undefined },
};

const good: { id: number; slug: string; title: string }[] = [];
const broken: { id: number; slug: string; name: string }[] = [];
let venueId = 0;

async function rewrite(id: number, change: Record<string, unknown>): Promise<void> {
  const { Item } = await db().send(new GetCommand({ TableName: config().tableName, Key: keys.post(id) }));
  const item: Record<string, unknown> = { ...Item };
  for (const [field, value] of Object.entries(change)) {
    if (value === undefined) delete item[field];
    else item[field] = value;
  }
  await db().send(new PutCommand({ TableName: config().tableName, Item: item }));
}

beforeAll(async () => {
  const category = await createAsEditor(gw, '/categories', { name: 'Malformed cat', slug: 'malformed-cat' });
  const venue = await createAsEditor(gw, '/venues', { venue: 'Malformed hall' });
  venueId = venue.id;
  let day = 1;
  const make = async (title: string) => {
    const d = `${DAY}${String(day).padStart(2, '0')}`;
    day += 1;
    return createAsEditor(gw, '/events', {
      title,
      start_date: `${d} 10:00:00`,
      end_date: `${d} 11:00:00`,
      categories: [category.id],
      venue: venue.id,
    });
  };
  for (const title of ['Well formed before', 'Well formed middle']) {
    const e = await make(title);
    good.push({ id: e.id, slug: e.slug, title });
  }
  for (const name of Object.keys(BREAKS)) {
    const e = await make(`Malformed ${name}`);
    broken.push({ id: e.id, slug: e.slug, name });
  }
  const last = await make('Well formed after');
  good.push({ id: last.id, slug: last.slug, title: 'Well formed after' });
  await gw.drain();
  for (const b of broken) await rewrite(b.id, BREAKS[b.name]!);
  // The stream consumer indexes them too (as instants where their times cannot be read): the
  // harness fails the file on any dead letter.
  await gw.drain();
}, 120_000);

const callers: [string, ApiOptions][] = [
  ['anonymous', {}],
  ['an editor', { token: 'editor' }],
];

function ok(res: ApiResponse, what: string): void {
  expect(res.status, `${what}: ${res.text.slice(0, 400)}`).toBeLessThan(500);
}

const wp = (path: string, o: ApiOptions) => gw.api('GET', gw.abs(`/en/wp/v2${path}`), o);
const titles = (body: unknown) =>
  Array.isArray(body) ? body.map((e: { title: unknown }) => (typeof e.title === 'object' ? (e.title as { rendered: string }).rendered : e.title)) : [];

describe('stored events of the wrong shape', () => {
  for (const [who, auth] of callers) {
    it(`answer every read by id and slug below 500, for ${who}`, async () => {
      for (const b of broken) {
        ok(await gw.api('GET', `/events/${b.id}`, auth), `${b.name} by id`);
        ok(await gw.api('GET', `/events/by-slug/${encodeURIComponent(b.slug)}`, auth), `${b.name} by slug`);
        ok(await gw.api('GET', `/events/${b.id}`, { ...auth, query: { ical: 1 } }), `${b.name} iCal`);
        ok(await wp(`/tribe_events/${b.id}`, auth), `${b.name} wp/v2`);
        ok(await wp(`/tribe_events/${b.id}`, { ...auth, query: { _embed: 1 } }), `${b.name} wp/v2 embedded`);
      }
      const byName = (name: string) => broken.find((b) => b.name === name)!;
      const numeric = await gw.api('GET', `/events/${byName('numeric title').id}`, auth);
      expect(numeric.status).toBe(200);
      expect(numeric.body.title).toBe('12345');
      // Times that do not read as times are shown as stored, without their parts.
      const garbage = await gw.api('GET', `/events/${byName('garbage start').id}`, auth);
      expect(garbage.status).toBe(200);
      expect([garbage.body.utc_start_date, garbage.body.utc_start_date_details]).toEqual(['garbage', null]);
      expect(garbage.body.end_date_details).toEqual({ year: '2033', month: '04', day: expect.any(String), hour: '11', minutes: '00', seconds: '00' });
      const typed = await gw.api('GET', `/events/${byName('wrong types').id}`, auth);
      expect(typed.status).toBe(200);
      expect([typed.body.all_day, typed.body.featured, typed.body.categories, typed.body.cost]).toEqual([true, false, [], '']);
      expect([typed.body.timezone, typed.body.timezone_abbr]).toEqual(['5', '']);
      // A calendar file holds no event whose times cannot be written.
      const file = await gw.api('GET', `/events/${byName('garbage start').id}`, { ...auth, query: { ical: 1 } });
      expect(file.status).toBe(200);
      expect(file.text).not.toContain('BEGIN:VEVENT');
      for (const g of good) {
        const one = await gw.api('GET', `/events/${g.id}`, auth);
        expect(one.status).toBe(200);
        expect(one.body.title).toBe(g.title);
      }
    });

    it(`leave the lists and feeds that hold them answering, with the well-formed events, for ${who}`, async () => {
      const window = { start_date: `${DAY}01`, end_date: `${DAY}28` };
      const pages: [string, NonNullable<ApiOptions['query']>][] = [
        ['tribe list', window],
        ['tribe list by category', { ...window, categories: 'malformed-cat' }],
        ['tribe list by venue', { ...window, venue: venueId }],
        ['tribe search', { ...window, search: 'formed' }],
        ['tribe include', { include: [...good, ...broken].map((e) => e.id).join(',') }],
      ];
      for (const [what, query] of pages) {
        const res = await gw.api('GET', '/events', { ...auth, query });
        ok(res, what);
        expect(res.status, what).toBe(200);
        const shown = res.body.events.map((e: { title: string }) => e.title);
        for (const g of good) expect(shown, what).toContain(g.title);
        // Every record is listed with what can be shown; one whose stored end is not text is
        // listed by its start, as the month's count holds it, so the total is what is shown.
        if (what === 'tribe list') {
          expect(shown).toEqual(expect.arrayContaining(['Malformed garbage start', '12345', 'Malformed wrong types', 'Malformed numeric start', 'Malformed missing dates']));
          expect(res.body.total).toBe(shown.length);
        }
        const feed = await gw.api('GET', '/events', { ...auth, query: { ...query, ical: 1 } });
        ok(feed, `${what} iCal`);
        expect(feed.status, what).toBe(200);
        for (const g of good) expect(feed.text, what).toContain(g.title);
        const vevents = feed.text.split('BEGIN:VEVENT').length - 1;
        expect(feed.headers.get('x-feed-events'), what).toBe(String(vevents));
        if (what === 'tribe list') {
          expect(feed.text).toContain('SUMMARY:12345');
          // Left out: the one whose start is no time, the one whose zone is none and the two
          // without text times.
          expect(vevents).toBe(shown.length - 4);
          expect(feed.text).not.toContain('Malformed garbage start');
        }
      }
      const wpQueries: Record<string, string | number>[] = [
        {},
        { search: 'formed' },
        { search: 'Malformed' },
        { orderby: 'title' },
        { orderby: 'date' },
        { include: [...good, ...broken].map((e) => e.id).join(',') },
        { _embed: 1 },
      ];
      for (const query of wpQueries) {
        const res = await wp('/tribe_events', { ...auth, query: { per_page: 100, ...query } });
        ok(res, `wp/v2 list ${JSON.stringify(query)}`);
        expect(res.status).toBe(200);
        if (query.search !== 'Malformed') for (const g of good) expect(titles(res.body)).toContain(g.title);
      }
    });
  }
});
