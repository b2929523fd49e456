// Every event operation through the real local HTTP gateway and a fresh DynamoDB table:
// create, read by id and slug, update by id and slug (POST, PUT, PATCH), delete (trash and
// force) and the list basics. Expectations follow TEC REST v1 (docs/tec-behaviour.md, and the answers
// recorded from a live TEC) plus the deliberate deviations of docs/tec-behaviour.md §1.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDevKeys, mintToken } from '#lib/local/dev-auth.js';
import { useGateway, type ApiResponse, type GatewayHarness, type Lang } from '../support/gateway.js';
import { createAsEditor, expectInvalidParams, NO_ROUTE, PAGE_NOT_FOUND } from '../support/expect.js';

// ---------------------------------------------------------------------------------------------
// Reference data and small helpers
// ---------------------------------------------------------------------------------------------

const sample = (name: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(`../tec-samples/${name}`, import.meta.url), 'utf8'));

/** Key order of an event in create/update/delete/list responses (TEC) plus our `lang`. */
const EVENT_KEYS = [...Object.keys(sample('seed/event1.json')), 'lang'];
/** Key order of a single read (TEC adds `json_ld`) plus our `lang`. */
const SINGLE_EVENT_KEYS = [...Object.keys(sample('03-event-7.json')), 'lang'];

const FORBIDDEN_401 = { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } };
const FORBIDDEN_403 = { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } };
const notFound = (id: number) => ({ code: 'rest-event-not-found', message: `Event with ID ${id} does not exist.`, data: { status: 404 } });
const INVALID_EVENT_ID = { code: 'rest-invalid-event-id', message: 'The specified ID is not a valid event.', data: { status: 400 } };
const TRASHED = { code: 'event-no-longer-available', message: 'This event is no longer available', data: { status: 403 } };
const NOT_ACCESSIBLE = { code: 'event-not-accessible', message: 'The requested event is not accessible', data: { status: 403 } };
const IN_TRASH = { code: 'event-is-in-trash', message: 'The event is already trashed', data: { status: 410 } };

const WALL_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** 'YYYY-MM-DD' of today (UTC, the site zone) plus `days`. */
function day(days: number, from = new Date()): string {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

/** TEC's `*_date_details` of a wall time. */
function details(wall: string) {
  const [, year, month, dd, hour, minutes, seconds] = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(wall)!;
  return { year, month, day: dd, hour, minutes, seconds };
}

/** A 400 rest_missing_callback_param that names exactly `names`. */
function expectMissing(res: ApiResponse, names: string[]) {
  expect(res.status, res.text).toBe(400);
  expect(res.body).toEqual({
    code: 'rest_missing_callback_param',
    message: `Missing parameter(s): ${names.join(', ')}`,
    data: { status: 400, params: names },
  });
}

const omit = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

/** Record helpers bound to one harness. */
function helpers(gw: GatewayHarness) {
  let n = 0;
  const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${++n}`;

  const defaults = () => ({ title: unique('Event'), start_date: `${day(40)} 10:00:00`, end_date: `${day(40)} 12:00:00` });

  /** POST /events as an editor; the raw response. */
  const postEvent = (body: Record<string, unknown>, o: { lang?: Lang; token?: string } = {}) =>
    gw.api('POST', '/events', { body: { ...defaults(), ...body }, token: o.token ?? 'editor', lang: o.lang });

  /** POST /events as an editor, expecting 201; the created event. */
  async function createEvent(overrides: Record<string, unknown> = {}, lang?: Lang): Promise<any> {
    const res = await postEvent(overrides, { lang });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  const create = (path: string, body: Record<string, unknown>, lang?: Lang) => createAsEditor(gw, path, body, lang);

  return {
    unique,
    postEvent,
    createEvent,
    createVenue: (fields: Record<string, unknown> = {}) => create('/venues', { venue: unique('Venue'), ...fields }),
    createOrganizer: (fields: Record<string, unknown> = {}) => create('/organizers', { organizer: unique('Organizer'), ...fields }),
    createCategory: (fields: Record<string, unknown> = {}, lang?: Lang) => create('/categories', { name: unique('Category'), ...fields }, lang),
    createTag: (fields: Record<string, unknown> = {}) => create('/tags', { name: unique('Tag'), ...fields }),
    /** A term's `count` as GET /categories/{id} or /tags/{id} shows it. */
    async termCount(kind: 'categories' | 'tags', id: number): Promise<number> {
      const res = await gw.api('GET', `/${kind}/${id}`);
      expect(res.status, res.text).toBe(200);
      return res.body.count;
    },
    async getEvent(id: number, o: { token?: string; lang?: Lang } = {}) {
      return gw.api('GET', `/events/${id}`, o);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Single-event operations (one table for all of them)
// ---------------------------------------------------------------------------------------------

describe('events API (single records)', () => {
  const gw = useGateway();
  const h = helpers(gw);

  describe('POST /events', () => {
    it('creates an event: 201, TEC key order plus lang, and every default', async () => {
      const before = new Date();
      const res = await h.postEvent({ title: 'Plain Event', start_date: '2027-01-15 19:00', end_date: '2027-01-15 22:00:00' });
      expect(res.status, res.text).toBe(201);
      expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      const e = res.body;
      expect(Object.keys(e)).toEqual(EVENT_KEYS);
      expect(e.json_ld).toBeUndefined();
      expect(Number.isInteger(e.id) && e.id > 0).toBe(true);
      const host = new URL(gw.origin).hostname;
      expect(e).toMatchObject({
        global_id: `${host}?id=${e.id}`,
        global_id_lineage: [`${host}?id=${e.id}`],
        status: 'publish',
        url: `${gw.origin}/event/plain-event/`,
        rest_url: gw.url(`/events/${e.id}`),
        title: 'Plain Event',
        description: '',
        excerpt: '',
        slug: 'plain-event',
        image: false,
        all_day: false,
        start_date: '2027-01-15 19:00:00',
        start_date_details: { year: '2027', month: '01', day: '15', hour: '19', minutes: '00', seconds: '00' },
        end_date: '2027-01-15 22:00:00',
        end_date_details: details('2027-01-15 22:00:00'),
        utc_start_date: '2027-01-15 19:00:00',
        utc_start_date_details: details('2027-01-15 19:00:00'),
        utc_end_date: '2027-01-15 22:00:00',
        utc_end_date_details: details('2027-01-15 22:00:00'),
        timezone: 'UTC',
        timezone_abbr: 'UTC',
        cost: '',
        cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
        // TEC shows the permalink when no website was ever set.
        website: `${gw.origin}/event/plain-event/`,
        hide_from_listings: false,
        sticky: false,
        featured: false,
        categories: [],
        tags: [],
        venue: [],
        organizer: [],
        custom_fields: [],
        lang: 'en',
      });
      expect(typeof e.author).toBe('string');
      expect(e.author).toMatch(/^\d+$/);
      for (const k of ['date', 'date_utc', 'modified', 'modified_utc']) expect(e[k], k).toMatch(WALL_RE);
      // The post date is "now" (site zone UTC).
      const created = Date.parse(`${e.date_utc.replace(' ', 'T')}Z`);
      expect(created).toBeGreaterThanOrEqual(Math.floor(before.getTime() / 1000) * 1000 - 1000);
      expect(created).toBeLessThanOrEqual(Date.now() + 1000);
      expect(e.date).toBe(e.date_utc);
    });

    it('the created event can be read back with the same values', async () => {
      const e = await h.createEvent({ description: 'Some words', excerpt: 'Short', featured: true });
      const res = await h.getEvent(e.id);
      expect(res.status).toBe(200);
      expect(omit(res.body, ['json_ld'])).toEqual(e);
      expect(e.description).toBe('<p>Some words</p>');
      expect(e.excerpt).toBe('<p>Short</p>');
      expect(e.featured).toBe(true);
    });

    it('sets the presentation flags that are sent', async () => {
      const e = await h.createEvent({ show_map: true, show_map_link: 'yes', hide_from_listings: true, sticky: '1', featured: 'true' });
      expect([e.show_map, e.show_map_link, e.hide_from_listings, e.sticky, e.featured]).toEqual([true, true, true, true, true]);
      const f = await h.createEvent({ show_map: false, featured: 'no', sticky: 0 });
      expect([f.show_map, f.featured, f.sticky]).toEqual([false, false, false]);
    });

    it('links an existing venue and organizers by id and by {id}', async () => {
      const venue = await h.createVenue({ city: 'Springfield' });
      const o1 = await h.createOrganizer();
      const o2 = await h.createOrganizer();
      const e = await h.createEvent({ venue: venue.id, organizer: [o1.id, { id: o2.id }] });
      expect(e.venue).toMatchObject({ id: venue.id, venue: venue.venue, city: 'Springfield', lang: 'en' });
      expect(Array.isArray(e.venue)).toBe(false);
      expect(e.organizer.map((o: { id: number }) => o.id)).toEqual([o1.id, o2.id]);
      expect(e.organizer[0].organizer).toBe(o1.organizer);
      const byObject = await h.createEvent({ venue: { id: venue.id } });
      expect(byObject.venue.id).toBe(venue.id);
    });

    it('creates inline venue and organizer objects as records', async () => {
      const existing = await h.createOrganizer();
      const e = await h.createEvent({
        venue: { venue: 'Inline Hall', city: 'Vilnius', address: '1 Gedimino pr.' },
        organizer: [{ organizer: 'Inline Org', email: 'inline@example.com' }, existing.id],
      });
      expect(e.venue).toMatchObject({ venue: 'Inline Hall', city: 'Vilnius', address: '1 Gedimino pr.', slug: 'inline-hall' });
      expect(Number.isInteger(e.venue.id)).toBe(true);
      expect(e.organizer).toHaveLength(2);
      expect(e.organizer[0]).toMatchObject({ organizer: 'Inline Org', email: 'inline@example.com' });
      expect(e.organizer[1].id).toBe(existing.id);

      const venue = await gw.api('GET', `/venues/${e.venue.id}`);
      expect(venue.status).toBe(200);
      expect(venue.body).toMatchObject({ id: e.venue.id, venue: 'Inline Hall', city: 'Vilnius', status: 'publish' });
      const org = await gw.api('GET', `/organizers/${e.organizer[0].id}`);
      expect(org.status).toBe(200);
      expect(org.body).toMatchObject({ id: e.organizer[0].id, organizer: 'Inline Org', email: 'inline@example.com' });
      // Read back, the event still names the new records.
      const read = await h.getEvent(e.id);
      expect(read.body.venue.id).toBe(e.venue.id);
      expect(read.body.organizer.map((o: { id: number }) => o.id)).toEqual([e.organizer[0].id, existing.id]);
    });

    it('links categories and tags by id, by slug and by a new name, which creates the term', async () => {
      const byId = await h.createCategory({ name: 'Jazz Nights' });
      const bySlug = await h.createCategory({ name: 'Folk Evenings', slug: 'folk' });
      const tag = await h.createTag({ name: 'Outdoor Stuff', slug: 'outdoor-stuff' });
      const e = await h.createEvent({ categories: [byId.id, 'folk', 'Brand New Genre'], tags: ['outdoor-stuff', 'Fresh Tag'] });

      const cats = [...e.categories].sort((a: { id: number }, b: { id: number }) => a.id - b.id);
      expect(cats.map((c: { id: number }) => c.id).slice(0, 2)).toEqual([byId.id, bySlug.id]);
      const created = cats[2];
      expect(created).toMatchObject({ name: 'Brand New Genre', slug: 'brand-new-genre', taxonomy: 'tribe_events_cat', parent: 0, count: 1 });
      expect(created.id).toBeGreaterThan(bySlug.id);
      // A term inside an event has WordPress's raw term shape (docs/tec-behaviour.md §3.2) plus lang.
      expect(Object.keys(created)).toEqual(['name', 'slug', 'term_group', 'term_taxonomy_id', 'taxonomy', 'description', 'parent', 'count', 'filter', 'id', 'urls', 'lang']);
      expect(created.urls).toEqual({ self: gw.url(`/categories/${created.id}`), collection: gw.url('/categories') });

      const tags = [...e.tags].sort((a: { id: number }, b: { id: number }) => a.id - b.id);
      expect(tags[0].id).toBe(tag.id);
      expect(tags[1]).toMatchObject({ name: 'Fresh Tag', slug: 'fresh-tag', taxonomy: 'post_tag', count: 1 });

      const read = await gw.api('GET', `/categories/${created.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: created.id, name: 'Brand New Genre', slug: 'brand-new-genre', count: 1, taxonomy: 'tribe_events_cat' });
      const readTag = await gw.api('GET', `/tags/${tags[1].id}`);
      expect(readTag.body).toMatchObject({ name: 'Fresh Tag', count: 1, taxonomy: 'post_tag' });

      // Using the same new name again reuses the term instead of creating another.
      const again = await h.createEvent({ categories: ['Brand New Genre'] });
      expect(again.categories.map((c: { id: number }) => c.id)).toEqual([created.id]);
      expect(again.categories[0].count).toBe(2);
    });

    it('parses costs: "25" -> "$25" (site currency), "20$" -> postfix, a range with an en dash', async () => {
      const plain = await h.createEvent({ cost: '25' });
      expect(plain.cost).toBe('$25');
      expect(plain.cost_details).toEqual({ currency_symbol: '', currency_code: '', currency_position: '', values: ['25'] });
      const postfix = await h.createEvent({ cost: '20$' });
      expect(postfix.cost).toBe('20$');
      expect(postfix.cost_details).toEqual({ currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: ['20'] });
      const range = await h.createEvent({ cost: ['50', '10'] });
      expect(range.cost).toBe('$10 \u2013 $50');
      expect(range.cost_details.values).toEqual(['10', '50']);
      const free = await h.createEvent({ cost: 0 });
      expect(free.cost).toBe('Free');
    });

    it('all_day stretches the event to 00:00:00 .. 23:59:59 of its days', async () => {
      const e = await h.createEvent({ all_day: true, start_date: '2027-03-10 15:30', end_date: '2027-03-11 09:00' });
      expect(e.all_day).toBe(true);
      expect([e.start_date, e.end_date]).toEqual(['2027-03-10 00:00:00', '2027-03-11 23:59:59']);
      expect([e.utc_start_date, e.utc_end_date]).toEqual(['2027-03-10 00:00:00', '2027-03-11 23:59:59']);
      expect(e.end_date_details).toEqual(details('2027-03-11 23:59:59'));
    });

    it('keeps wall times in the event timezone and derives UTC with DST (America/New_York)', async () => {
      const summer = await h.createEvent({ timezone: 'America/New_York', start_date: '2027-07-04 10:00:00', end_date: '2027-07-04 12:30:00' });
      expect(summer).toMatchObject({
        timezone: 'America/New_York',
        timezone_abbr: 'EDT',
        start_date: '2027-07-04 10:00:00',
        end_date: '2027-07-04 12:30:00',
        utc_start_date: '2027-07-04 14:00:00',
        utc_end_date: '2027-07-04 16:30:00',
      });
      expect(summer.utc_start_date_details).toEqual(details('2027-07-04 14:00:00'));
      const winter = await h.createEvent({ timezone: 'America/New_York', start_date: '2027-01-15 10:00:00', end_date: '2027-01-15 11:00:00' });
      expect(winter).toMatchObject({ timezone_abbr: 'EST', utc_start_date: '2027-01-15 15:00:00', utc_end_date: '2027-01-15 16:00:00' });
      const fixed = await h.createEvent({ timezone: 'UTC+5', start_date: '2027-01-15 10:00:00', end_date: '2027-01-15 11:00:00' });
      expect(fixed).toMatchObject({ timezone: 'UTC+5', utc_start_date: '2027-01-15 05:00:00' });
    });

    it('accepts ISO 8601 with Z or an offset, Unix timestamps and relative dates', async () => {
      const iso = await h.createEvent({ start_date: '2027-05-01T10:00:00Z', end_date: '2027-05-01T11:30:00.000Z' });
      expect([iso.start_date, iso.end_date, iso.utc_start_date]).toEqual(['2027-05-01 10:00:00', '2027-05-01 11:30:00', '2027-05-01 10:00:00']);

      // An instant is an instant: in another zone its wall time is converted.
      const offset = await h.createEvent({ timezone: 'America/New_York', start_date: '2027-07-04T14:00:00Z', end_date: '2027-07-04T12:00:00-04:00' });
      expect([offset.start_date, offset.utc_start_date, offset.end_date, offset.utc_end_date]).toEqual([
        '2027-07-04 10:00:00',
        '2027-07-04 14:00:00',
        '2027-07-04 12:00:00',
        '2027-07-04 16:00:00',
      ]);

      const ts = Date.UTC(2027, 4, 1, 10, 0, 0) / 1000;
      const unix = await h.createEvent({ start_date: ts, end_date: String(ts + 5400) });
      expect([unix.start_date, unix.end_date]).toEqual(['2027-05-01 10:00:00', '2027-05-01 11:30:00']);

      const before = new Date();
      const rel = await h.createEvent({ start_date: 'tomorrow 9am', end_date: 'tomorrow 16:30' });
      const after = new Date();
      const tomorrow = new Set([day(1, before), day(1, after)]);
      expect(tomorrow.has(rel.start_date.slice(0, 10))).toBe(true);
      expect(rel.start_date.slice(11)).toBe('09:00:00');
      expect(rel.end_date).toBe(`${rel.start_date.slice(0, 10)} 16:30:00`);
    });

    it('generates slugs: transliterated Cyrillic in ru, -2 on a duplicate title, unique per language', async () => {
      const ru = await h.createEvent({ title: 'Летний концерт' }, 'ru');
      expect(ru).toMatchObject({ slug: 'letniy-kontsert', lang: 'ru', title: 'Летний концерт' });
      expect(ru.url).toBe(`${gw.origin}/ru/event/letniy-kontsert/`);
      expect(ru.rest_url).toBe(gw.url(`/events/${ru.id}`, 'ru'));

      const first = await h.createEvent({ title: 'Duplicate Title' });
      const second = await h.createEvent({ title: 'Duplicate Title' });
      const third = await h.createEvent({ title: 'Duplicate Title' });
      expect([first.slug, second.slug, third.slug]).toEqual(['duplicate-title', 'duplicate-title-2', 'duplicate-title-3']);
      const otherLang = await h.createEvent({ title: 'Duplicate Title' }, 'lt');
      expect(otherLang.slug).toBe('duplicate-title');

      const explicit = await h.createEvent({ slug: 'My Custom Slug' });
      expect(explicit.slug).toBe('my-custom-slug');
    });

    it('a missing title is 400 rest_missing_callback_param naming title', async () => {
      const res = await gw.api('POST', '/events', { token: 'editor', body: { start_date: '2027-01-01 10:00', end_date: '2027-01-01 11:00' } });
      expectMissing(res, ['title']);
    });

    it('several missing parameters are all named', async () => {
      expectMissing(await gw.api('POST', '/events', { token: 'editor', body: {} }), ['title', 'start_date', 'end_date']);
      expectMissing(await gw.api('POST', '/events', { token: 'editor', body: { title: 'Only a title' } }), ['start_date', 'end_date']);
    });

    it('an empty title is 400 rest_invalid_param', async () => {
      expectInvalidParams(await h.postEvent({ title: '' }), 'title');
    });

    it('an unparsable date is 400 rest_invalid_param naming start_date', async () => {
      const res = await h.postEvent({ start_date: 'before my birthday' });
      expectInvalidParams(res, 'start_date');
      expect(res.body.data.params.start_date).toEqual(expect.any(String));
      expect(res.body.data.details).toEqual([]);
      expectInvalidParams(await h.postEvent({ start_date: '2027-02-30 10:00' }), 'start_date');
    });

    it('an end before the start is 400 naming end_date, with a message about the start', async () => {
      const res = await h.postEvent({ start_date: '2027-01-15 19:00', end_date: '2027-01-15 18:00' });
      expectInvalidParams(res, 'end_date');
      expect(res.body.data.params.end_date).toMatch(/start/);
    });

    it('an unknown venue, organizer or term id is a 400', async () => {
      const other = await h.createOrganizer();
      expectInvalidParams(await h.postEvent({ venue: 99999 }), 'venue');
      // An organizer's id is not a venue.
      const wrongKind = await h.postEvent({ venue: other.id });
      expect(wrongKind.status).toBe(400);
      expectInvalidParams(await h.postEvent({ organizer: [99999] }), 'organizer');
      expectInvalidParams(await h.postEvent({ categories: [99999] }), 'categories');
      expectInvalidParams(await h.postEvent({ tags: [99999] }), 'tags');
    });

    it('a rejected create writes nothing (no event, no new term)', async () => {
      const res = await h.postEvent({ title: 'Rejected Create', categories: ['Should Not Exist Cat'], venue: 99999 });
      expect(res.status).toBe(400);
      const names: string[] = [];
      for (let page = 1; ; page++) {
        const cats = await gw.api('GET', '/categories', { query: { hide_empty: false, per_page: 50, page } });
        expect(cats.status).toBe(200);
        names.push(...cats.body.categories.map((c: { name: string }) => c.name));
        if (page >= cats.body.total_pages) break;
      }
      expect(names.length).toBeGreaterThan(0);
      expect(names).not.toContain('Should Not Exist Cat');
      // No event took the slug either.
      expect((await h.createEvent({ title: 'Rejected Create' })).slug).toBe('rejected-create');
    });

    it('malformed JSON is 400 rest_invalid_json', async () => {
      const res = await gw.api('POST', '/events', { token: 'editor', body: '{"title": "broken",' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_json');
      expect(res.body.data.status).toBe(400);
    });

    it('a body over MAX_BODY_BYTES (256 KiB) is 413 and writes nothing', async () => {
      const title = `Too big ${Date.now()}`;
      const res = await gw.api('POST', '/events', {
        token: 'editor',
        body: { title, start_date: '2027-01-15 19:00', end_date: '2027-01-15 20:00', description: 'x'.repeat(300 * 1024) },
      });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413 } });
      expect(res.body.message).toContain('262144');
      const day = await gw.api('GET', '/events', { query: { start_date: '2027-01-15', end_date: '2027-01-15', status: 'any', per_page: 50 }, token: 'editor' });
      expect(day.status).toBe(200);
      expect(day.body.events.map((e: { title: string }) => e.title)).not.toContain(title);
    });

    it('accepts a form-encoded body, with lists as name[]', async () => {
      const res = await gw.api('POST', '/events', {
        token: 'editor',
        form: {
          title: 'Form Event',
          start_date: '2027-06-01 18:00',
          end_date: '2027-06-01 20:00',
          categories: ['Form Cat One', 'Form Cat Two'],
          featured: '1',
          all_day: 'false',
          cost: '15',
        },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ title: 'Form Event', slug: 'form-event', start_date: '2027-06-01 18:00:00', featured: true, all_day: false, cost: '$15' });
      expect(res.body.categories.map((c: { name: string }) => c.name).sort()).toEqual(['Form Cat One', 'Form Cat Two']);
    });

    it('anonymous is 401 rest_forbidden, even with invalid or missing parameters', async () => {
      const valid = await gw.api('POST', '/events', { body: { title: 'Anon', start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 11:00:00' } });
      expect(valid.status).toBe(401);
      expect(valid.body).toEqual(FORBIDDEN_401);
      for (const body of [{}, { title: '', start_date: 'nonsense', end_date: 'x' }, { title: 'x', start_date: '2027-01-02', end_date: '2027-01-01', venue: 99999 }]) {
        const res = await gw.api('POST', '/events', { body });
        expect(res.status, JSON.stringify(body)).toBe(401);
        expect(res.body).toEqual(FORBIDDEN_401);
      }
    });

    it('an invalid or expired token is 401, never silently anonymous', async () => {
      const res = await h.postEvent({}, { token: 'not.a.token' });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('rest_forbidden');
      const expired = await gw.token('editor', 'old', { expiresAt: Math.floor(Date.now() / 1000) - 60 });
      const late = await h.postEvent({}, { token: expired });
      expect(late.status).toBe(401);
      expect(late.body.code).toBe('rest_forbidden');
    });

    it('a token without a role is 403 rest_forbidden; authors publish and contributors submit pending', async () => {
      const noRole = await mintToken(await ensureDevKeys('.local'), { sub: 'someone-without-role' });
      const res = await h.postEvent({}, { token: noRole });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN_403);
      const byAuthor = await h.postEvent({ status: 'publish' }, { token: await gw.token('author', 'someone-author') });
      expect(byAuthor.status).toBe(201);
      expect(byAuthor.body.status).toBe('publish');
      const byContributor = await h.postEvent({ status: 'publish' }, { token: await gw.token('contributor', 'someone-contributor') });
      expect(byContributor.status).toBe(201);
      expect(byContributor.body.status).toBe('pending');
    });

    it('ml_language in the body picks the language of the new event', async () => {
      const e = await h.createEvent({ ml_language: 'lt', title: 'Lithuanian By Body' });
      expect(e.lang).toBe('lt');
      expect(e.rest_url).toBe(gw.url(`/events/${e.id}`, 'lt'));
      expectInvalidParams(await h.postEvent({ ml_language: 'xx' }), 'ml_language');
    });
  });

  describe('GET /events/{id}', () => {
    let event: any;
    beforeAll(async () => {
      const venue = await h.createVenue({ city: 'Springfield', address: '1 Loop Road' });
      event = await h.createEvent({
        title: 'Readable Event',
        venue: venue.id,
        cost: '25',
        excerpt: 'Evening concert',
        start_date: '2027-01-15 19:00',
        end_date: '2027-01-15 22:00',
      });
    });

    it('200 with the TEC single shape: json_ld after custom_fields, then lang', async () => {
      const res = await h.getEvent(event.id);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(SINGLE_EVENT_KEYS);
      expect(res.body.json_ld).toMatchObject({
        '@context': 'http://schema.org',
        '@type': 'Event',
        name: 'Readable Event',
        url: event.url,
        startDate: '2027-01-15T19:00:00+00:00',
        endDate: '2027-01-15T22:00:00+00:00',
        location: { '@type': 'Place', name: event.venue.venue },
        offers: { '@type': 'Offer', price: '25' },
      });
      // Nested venues carry json_ld in the single context too.
      expect(res.body.venue.json_ld).toMatchObject({ '@type': 'Place' });
    });

    it('an unknown id is 404 rest-event-not-found', async () => {
      const res = await h.getEvent(99999);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound(99999));
    });

    it("a venue's id is 400 rest-invalid-event-id", async () => {
      const res = await h.getEvent(event.venue.id);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_EVENT_ID);
    });

    it('a non-numeric id is 404 rest_no_route', async () => {
      for (const id of ['foo', 'foo-bar', '12abc']) {
        const res = await gw.api('GET', `/events/${id}`);
        expect(res.status, id).toBe(404);
        expect(res.body, id).toEqual(NO_ROUTE);
      }
    });

    it('a trashed event is 403 event-no-longer-available, for editors too', async () => {
      const e = await h.createEvent();
      expect((await gw.api('DELETE', `/events/${e.id}`, { token: 'editor' })).status).toBe(200);
      const anon = await h.getEvent(e.id);
      expect(anon.status).toBe(403);
      expect(anon.body).toEqual(TRASHED);
      const editor = await h.getEvent(e.id, { token: 'editor' });
      expect(editor.status).toBe(403);
      expect(editor.body).toEqual(TRASHED);
    });

    it('a draft is 403 event-not-accessible anonymously, 200 for an editor', async () => {
      const draft = await h.createEvent({ status: 'draft' });
      expect(draft.status).toBe('draft');
      const anon = await h.getEvent(draft.id);
      expect(anon.status).toBe(403);
      expect(anon.body).toEqual(NOT_ACCESSIBLE);
      const editor = await h.getEvent(draft.id, { token: 'editor' });
      expect(editor.status).toBe(200);
      expect(editor.body).toMatchObject({ id: draft.id, status: 'draft' });
      expect(editor.body.json_ld).toBeDefined();
    });

    it('a bad token on a read is 401, not anonymous', async () => {
      const res = await h.getEvent(event.id, { token: 'garbage' });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('rest_forbidden');
    });

    it('reads by id work across languages; the rest_url stays in the event language', async () => {
      const res = await h.getEvent(event.id, { lang: 'ru' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: event.id, lang: 'en', rest_url: gw.url(`/events/${event.id}`, 'en') });
    });
  });

  describe('GET /events/by-slug/{slug}', () => {
    let en: any;
    let ru: any;
    beforeAll(async () => {
      en = await h.createEvent({ title: 'Slug Lookup Event' });
      ru = await h.createEvent({ title: 'Русское событие' }, 'ru');
    });

    it('200 with the same body as the read by id', async () => {
      const res = await gw.api('GET', `/events/by-slug/${en.slug}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(SINGLE_EVENT_KEYS);
      expect(res.body).toEqual((await h.getEvent(en.id)).body);
    });

    it('an unknown slug is 400 rest_invalid_param naming slug', async () => {
      expectInvalidParams(await gw.api('GET', '/events/by-slug/no-such-event'), 'slug');
    });

    it('a missing slug is 404 rest_no_route', async () => {
      const res = await gw.api('GET', '/events/by-slug/');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NO_ROUTE);
    });

    it('sees only the request language: a ru event is not found under /en/, found under /ru/ and by id under /en/', async () => {
      expect(ru.slug).toBe('russkoe-sobytie');
      expectInvalidParams(await gw.api('GET', `/events/by-slug/${ru.slug}`), 'slug');
      const inRu = await gw.api('GET', `/events/by-slug/${ru.slug}`, { lang: 'ru' });
      expect(inRu.status).toBe(200);
      expect(inRu.body).toMatchObject({ id: ru.id, lang: 'ru' });
      const byId = await h.getEvent(ru.id, { lang: 'en' });
      expect(byId.status).toBe(200);
      expect(byId.body).toMatchObject({ id: ru.id, lang: 'ru' });
      // And the other way round.
      expectInvalidParams(await gw.api('GET', `/events/by-slug/${en.slug}`, { lang: 'ru' }), 'slug');
    });

    it('ml_language in the query overrides the path language', async () => {
      const res = await gw.api('GET', `/events/by-slug/${ru.slug}`, { query: { ml_language: 'ru' } });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(ru.id);
      expectInvalidParams(await gw.api('GET', `/events/by-slug/${en.slug}`, { lang: 'ru', query: { ml_language: 'lt' } }), 'slug');
      const back = await gw.api('GET', `/events/by-slug/${en.slug}`, { lang: 'ru', query: { ml_language: 'en' } });
      expect(back.status).toBe(200);
      expect(back.body.id).toBe(en.id);
    });

    it('ml_language=xx is 400 rest_invalid_param', async () => {
      expectInvalidParams(await gw.api('GET', `/events/by-slug/${en.slug}`, { query: { ml_language: 'xx' } }), 'ml_language');
    });

    it('a draft found by slug is 403 anonymously, 200 for an editor', async () => {
      const draft = await h.createEvent({ status: 'draft', title: 'Draft By Slug' });
      const anon = await gw.api('GET', `/events/by-slug/${draft.slug}`);
      expect(anon.status).toBe(403);
      expect(anon.body).toEqual(NOT_ACCESSIBLE);
      const editor = await gw.api('GET', `/events/by-slug/${draft.slug}`, { token: 'editor' });
      expect(editor.status).toBe(200);
      expect(editor.body.id).toBe(draft.id);
    });
  });

  describe('POST/PUT/PATCH /events/{id}', () => {
    it('a partial update keeps every omitted field (POST, PUT and PATCH alike)', async () => {
      const venue = await h.createVenue();
      const org = await h.createOrganizer();
      const cat = await h.createCategory();
      const e = await h.createEvent({
        description: 'Keep me',
        excerpt: 'Keep excerpt',
        timezone: 'America/New_York',
        start_date: '2027-07-04 10:00',
        end_date: '2027-07-04 12:00',
        venue: venue.id,
        organizer: [org.id],
        categories: [cat.id],
        tags: ['Keep Tag'],
        cost: '20$',
        website: 'https://example.com/keep',
        featured: true,
        sticky: true,
        show_map: true,
        show_map_link: true,
        hide_from_listings: true,
        all_day: false,
        status: 'publish',
      });
      let previous = e;
      for (const [method, title] of [
        ['PATCH', 'Patched Title'],
        ['PUT', 'Put Title'],
        ['POST', 'Posted Title'],
      ] as const) {
        const res = await gw.api(method, `/events/${e.id}`, { token: 'editor', body: { title } });
        expect(res.status, `${method}: ${res.text}`).toBe(200);
        expect(Object.keys(res.body)).toEqual(EVENT_KEYS);
        expect(res.body.title).toBe(title);
        // Only the title and the modification time may change; the slug stays.
        expect(omit(res.body, ['title', 'modified', 'modified_utc'])).toEqual(omit(previous, ['title', 'modified', 'modified_utc']));
        previous = res.body;
      }
      // A single read differs only by json_ld (also on the nested venue and organizers).
      const read = await h.getEvent(e.id);
      const plain = omit(read.body, ['json_ld']);
      plain.venue = omit(read.body.venue, ['json_ld']);
      plain.organizer = read.body.organizer.map((o: Record<string, unknown>) => omit(o, ['json_ld']));
      expect(plain).toEqual(previous);
    });

    it('an update without all_day keeps an all-day event all-day', async () => {
      const e = await h.createEvent({ all_day: true, start_date: '2027-03-10', end_date: '2027-03-10' });
      expect([e.all_day, e.start_date, e.end_date]).toEqual([true, '2027-03-10 00:00:00', '2027-03-10 23:59:59']);
      const res = await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { title: 'Still All Day' } });
      expect(res.status).toBe(200);
      expect([res.body.all_day, res.body.start_date, res.body.end_date]).toEqual([true, '2027-03-10 00:00:00', '2027-03-10 23:59:59']);
      const off = await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { all_day: false } });
      expect(off.body.all_day).toBe(false);
    });

    it('changes the status when it is sent', async () => {
      const draft = await h.createEvent({ status: 'draft' });
      const res = await gw.api('PATCH', `/events/${draft.id}`, { token: 'editor', body: { status: 'publish' } });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('publish');
      expect((await h.getEvent(draft.id)).status).toBe(200);
      const back = await gw.api('PUT', `/events/${draft.id}`, { token: 'editor', body: { status: 'pending' } });
      expect(back.body.status).toBe('pending');
      expect((await h.getEvent(draft.id)).body).toEqual(NOT_ACCESSIBLE);
    });

    it('changing one date keeps the other and re-derives UTC', async () => {
      const e = await h.createEvent({ timezone: 'America/New_York', start_date: '2027-07-04 10:00', end_date: '2027-07-04 12:00' });
      const res = await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { end_date: '2027-07-05 09:00' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ start_date: '2027-07-04 10:00:00', end_date: '2027-07-05 09:00:00', utc_end_date: '2027-07-05 13:00:00' });
      const tz = await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { timezone: 'UTC' } });
      expect(tz.body).toMatchObject({ start_date: '2027-07-04 10:00:00', utc_start_date: '2027-07-04 10:00:00', timezone: 'UTC' });
    });

    it('an update that puts the end before the start is 400 naming end_date', async () => {
      const e = await h.createEvent({ start_date: '2027-01-15 19:00', end_date: '2027-01-15 22:00' });
      const res = await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { end_date: '2027-01-15 18:00' } });
      expectInvalidParams(res, 'end_date');
      expect(res.body.data.params.end_date).toMatch(/start/);
      expect((await h.getEvent(e.id)).body.end_date).toBe('2027-01-15 22:00:00');
    });

    it('renames the slug; the old slug is freed and no longer finds the event', async () => {
      const e = await h.createEvent({ title: 'Before Rename' });
      const res = await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { slug: 'after-rename' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ slug: 'after-rename', title: 'Before Rename', url: `${gw.origin}/event/after-rename/` });
      expect((await gw.api('GET', '/events/by-slug/after-rename')).body.id).toBe(e.id);
      expectInvalidParams(await gw.api('GET', '/events/by-slug/before-rename'), 'slug');
      const reuse = await h.createEvent({ title: 'Before Rename' });
      expect(reuse.slug).toBe('before-rename');
      // A taken slug gets a suffix instead of colliding.
      const clash = await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { slug: 'before-rename' } });
      expect(clash.status).toBe(200);
      expect(clash.body.slug).toBe('before-rename-2');
    });

    it('clears categories and tags with "" and the venue with 0, organizers with []', async () => {
      const venue = await h.createVenue();
      const org = await h.createOrganizer();
      const e = await h.createEvent({ venue: venue.id, organizer: [org.id], categories: ['Clear Me Cat'], tags: ['Clear Me Tag'] });
      expect(e.categories).toHaveLength(1);
      const res = await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { categories: '', tags: '', venue: 0, organizer: [] } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ categories: [], tags: [], venue: [], organizer: [] });
      expect(await h.termCount('categories', e.categories[0].id)).toBe(0);
      expect(await h.termCount('tags', e.tags[0].id)).toBe(0);
      const read = await h.getEvent(e.id);
      expect(read.body).toMatchObject({ categories: [], tags: [], venue: [], organizer: [] });
    });

    it('replaces links when new ones are sent', async () => {
      const v1 = await h.createVenue();
      const v2 = await h.createVenue();
      const e = await h.createEvent({ venue: v1.id });
      const res = await gw.api('PUT', `/events/${e.id}`, { token: 'editor', body: { venue: v2.id } });
      expect(res.body.venue.id).toBe(v2.id);
      expect((await h.getEvent(e.id)).body.venue.id).toBe(v2.id);
    });

    it('an unknown id is 404 for editors and 401 anonymously', async () => {
      const res = await gw.api('PATCH', '/events/99999', { token: 'editor', body: { title: 'x' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound(99999));
      const anon = await gw.api('PATCH', '/events/99999', { body: { title: 'x' } });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(FORBIDDEN_401);
    });

    it("a venue's id is 400 rest-invalid-event-id", async () => {
      const venue = await h.createVenue();
      const res = await gw.api('PATCH', `/events/${venue.id}`, { token: 'editor', body: { title: 'x' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_EVENT_ID);
    });

    it('anonymous and other roles cannot update an existing event; nothing changes', async () => {
      const e = await h.createEvent({ title: 'Guarded Event' });
      const anon = await gw.api('PATCH', `/events/${e.id}`, { body: { title: 'Hacked' } });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(FORBIDDEN_401);
      const author = await gw.api('PATCH', `/events/${e.id}`, { token: await gw.token('author', 'an-author'), body: { title: 'Hacked' } });
      expect(author.status).toBe(403);
      expect((await h.getEvent(e.id)).body.title).toBe('Guarded Event');
    });

    it('an invalid value is 400 and changes nothing', async () => {
      const e = await h.createEvent({ title: 'Validated Update' });
      expectInvalidParams(await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { start_date: 'whenever' } }), 'start_date');
      expectInvalidParams(await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { featured: 'maybe' } }), 'featured');
      expectInvalidParams(await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { status: 'foo' } }), 'status');
      expect((await h.getEvent(e.id)).body).toMatchObject({ title: 'Validated Update', featured: false, status: 'publish' });
    });

    it('updates by id work across languages and keep the event language', async () => {
      const ru = await h.createEvent({ title: 'Событие для правки' }, 'ru');
      const res = await gw.api('PATCH', `/events/${ru.id}`, { token: 'editor', body: { title: 'Исправлено' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ lang: 'ru', title: 'Исправлено', slug: ru.slug });
    });
  });

  describe('term counts follow publishing, term changes and trashing (read through GET /categories/{id})', () => {
    it('a published create counts; a draft create does not', async () => {
      const c = await h.createCategory({ name: 'Count On Create' });
      const tag = await h.createTag({ name: 'Count On Create Tag' });
      expect([c.count, tag.count]).toEqual([0, 0]);
      await h.createEvent({ status: 'draft', categories: [c.id], tags: [tag.id] });
      expect(await h.termCount('categories', c.id)).toBe(0);
      expect(await h.termCount('tags', tag.id)).toBe(0);
      const e1 = await h.createEvent({ categories: [c.id], tags: [tag.id] });
      expect(e1.categories[0].count).toBe(1);
      expect(await h.termCount('categories', c.id)).toBe(1);
      expect(await h.termCount('tags', tag.id)).toBe(1);
      const e2 = await h.createEvent({ categories: [c.id] });
      expect(e2.categories[0].count).toBe(2);
      expect(await h.termCount('categories', c.id)).toBe(2);
    });

    it('changing the terms of a published event moves its count; other updates do not count again', async () => {
      const a = await h.createCategory({ name: 'Count Move A' });
      const b = await h.createCategory({ name: 'Count Move B' });
      const e = await h.createEvent({ categories: [a.id] });
      expect(await h.termCount('categories', a.id)).toBe(1);
      const moved = await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { categories: [b.id] } });
      expect(moved.body.categories.map((c: { id: number; count: number }) => [c.id, c.count])).toEqual([[b.id, 1]]);
      expect(await h.termCount('categories', a.id)).toBe(0);
      expect(await h.termCount('categories', b.id)).toBe(1);
      const both = await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { categories: [a.id, b.id] } });
      expect(both.status).toBe(200);
      expect([await h.termCount('categories', a.id), await h.termCount('categories', b.id)]).toEqual([1, 1]);
      for (let i = 0; i < 2; i++) await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { title: `Not about terms ${i}` } });
      expect([await h.termCount('categories', a.id), await h.termCount('categories', b.id)]).toEqual([1, 1]);
    });

    it('trashing a published event decrements; deleting it from the trash changes nothing more', async () => {
      const c = await h.createCategory({ name: 'Count Trash' });
      const keep = await h.createEvent({ categories: [c.id] });
      const e = await h.createEvent({ categories: [c.id] });
      expect(await h.termCount('categories', c.id)).toBe(2);
      expect((await gw.api('DELETE', `/events/${e.id}`, { token: 'editor' })).status).toBe(200);
      expect(await h.termCount('categories', c.id)).toBe(1);
      expect((await gw.api('DELETE', `/events/${e.id}`, { token: 'editor', query: { force: true } })).status).toBe(200);
      expect(await h.termCount('categories', c.id)).toBe(1);
      expect((await h.getEvent(keep.id)).body.categories[0].count).toBe(1);
    });

    it('a permanent delete of a published event decrements its terms', async () => {
      const c = await h.createCategory({ name: 'Count Category Forced' });
      const e = await h.createEvent({ categories: [c.id] });
      expect(await h.termCount('categories', c.id)).toBe(1);
      const res = await gw.api('DELETE', `/events/${e.id}`, { token: 'editor', query: { force: 'true' } });
      expect(res.status).toBe(200);
      expect(await h.termCount('categories', c.id)).toBe(0);
    });

    it('publishing a draft counts it; unpublishing uncounts it', async () => {
      const c = await h.createCategory({ name: 'Count Publish' });
      const tag = await h.createTag({ name: 'Count Publish Tag' });
      const e = await h.createEvent({ status: 'draft', categories: [c.id], tags: [tag.id] });
      expect(await h.termCount('categories', c.id)).toBe(0);
      const published = await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { status: 'publish' } });
      expect(published.status).toBe(200);
      expect(published.body.categories[0].count).toBe(1);
      expect(await h.termCount('categories', c.id)).toBe(1);
      expect(await h.termCount('tags', tag.id)).toBe(1);
      await gw.api('PATCH', `/events/${e.id}`, { token: 'editor', body: { status: 'draft' } });
      expect(await h.termCount('categories', c.id)).toBe(0);
      expect(await h.termCount('tags', tag.id)).toBe(0);
    });
  });

  describe('POST/PUT/PATCH and DELETE /events/by-slug/{slug}', () => {
    it('updates by slug with POST, PUT and PATCH', async () => {
      const e = await h.createEvent({ title: 'By Slug Update', description: 'Original' });
      let n = 0;
      for (const method of ['POST', 'PUT', 'PATCH']) {
        const res = await gw.api(method, `/events/by-slug/${e.slug}`, { token: 'editor', body: { excerpt: `Excerpt ${++n}` } });
        expect(res.status, `${method}: ${res.text}`).toBe(200);
        expect(Object.keys(res.body)).toEqual(EVENT_KEYS);
        expect(res.body).toMatchObject({ id: e.id, slug: e.slug, title: 'By Slug Update', excerpt: `<p>Excerpt ${n}</p>`, description: '<p>Original</p>' });
      }
    });

    it('a slug in the body renames the event found by the path slug', async () => {
      const e = await h.createEvent({ title: 'Slug Path Event' });
      const res = await gw.api('PATCH', `/events/by-slug/${e.slug}`, { token: 'editor', body: { slug: 'slug-path-renamed' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: e.id, slug: 'slug-path-renamed' });
      expect((await gw.api('GET', '/events/by-slug/slug-path-renamed')).body.id).toBe(e.id);
    });

    it('by-slug updates see only the request language', async () => {
      const ru = await h.createEvent({ title: 'Правка по слагу' }, 'ru');
      expectInvalidParams(await gw.api('PATCH', `/events/by-slug/${ru.slug}`, { token: 'editor', body: { title: 'x' } }), 'slug');
      const res = await gw.api('PATCH', `/events/by-slug/${ru.slug}`, { token: 'editor', lang: 'ru', body: { title: 'Готово' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: ru.id, title: 'Готово' });
    });

    it('an unknown slug is 400 for editors, 401 anonymously', async () => {
      expectInvalidParams(await gw.api('PATCH', '/events/by-slug/nothing-here', { token: 'editor', body: { title: 'x' } }), 'slug');
      const anon = await gw.api('PATCH', '/events/by-slug/nothing-here', { body: { title: 'x' } });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(FORBIDDEN_401);
      const anonDelete = await gw.api('DELETE', '/events/by-slug/nothing-here');
      expect(anonDelete.status).toBe(401);
    });

    it('by-slug writes check the role like by-id writes', async () => {
      const e = await h.createEvent({ title: 'Slug Role Check' });
      const token = await gw.token('contributor', 'slug-contributor');
      expect((await gw.api('PATCH', `/events/by-slug/${e.slug}`, { token, body: { title: 'x' } })).status).toBe(403);
      expect((await gw.api('DELETE', `/events/by-slug/${e.slug}`, { token })).status).toBe(403);
      expect((await h.getEvent(e.id)).body).toMatchObject({ title: 'Slug Role Check', status: 'publish' });
    });

    it('DELETE by slug trashes the event; the slug then no longer finds it', async () => {
      const e = await h.createEvent({ title: 'Delete By Slug' });
      const res = await gw.api('DELETE', `/events/by-slug/${e.slug}`, { token: 'editor' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(EVENT_KEYS);
      expect(res.body).toMatchObject({ id: e.id, status: 'trash', title: 'Delete By Slug' });
      expectInvalidParams(await gw.api('DELETE', `/events/by-slug/${e.slug}`, { token: 'editor' }), 'slug');
      const byId = await gw.api('DELETE', `/events/${e.id}`, { token: 'editor' });
      expect(byId.status).toBe(410);
      expect(byId.body).toEqual(IN_TRASH);
      // The trashed event freed its slug.
      expect((await h.createEvent({ title: 'Delete By Slug' })).slug).toBe('delete-by-slug');
    });

    it('DELETE by slug with force=true deletes permanently', async () => {
      const e = await h.createEvent({ title: 'Force Delete By Slug' });
      const res = await gw.api('DELETE', `/events/by-slug/${e.slug}`, { token: 'editor', query: { force: true } });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(e.id);
      const gone = await h.getEvent(e.id);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(notFound(e.id));
    });
  });

  describe('DELETE /events/{id}', () => {
    it('trashes: 200 with status "trash", then 410 event-is-in-trash', async () => {
      const e = await h.createEvent({ title: 'Trash Me' });
      const res = await gw.api('DELETE', `/events/${e.id}`, { token: 'editor' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(EVENT_KEYS);
      expect(omit(res.body, ['status', 'modified', 'modified_utc', 'slug', 'url', 'website'])).toEqual(omit(e, ['status', 'modified', 'modified_utc', 'slug', 'url', 'website']));
      expect(res.body.status).toBe('trash');
      const again = await gw.api('DELETE', `/events/${e.id}`, { token: 'editor' });
      expect(again.status).toBe(410);
      expect(again.body).toEqual(IN_TRASH);
      // Reading it is 403 from now on, for editors too (docs/tec-behaviour.md §5.1 step 4).
      expect((await h.getEvent(e.id, { token: 'editor' })).body).toEqual(TRASHED);
    });

    it('a trashed event leaves the lists', async () => {
      const e = await h.createEvent({ title: 'Listed Then Trashed', start_date: `${day(50)} 10:00`, end_date: `${day(50)} 11:00` });
      const window = { start_date: day(50), end_date: day(50) };
      const before = await gw.api('GET', '/events', { query: window });
      expect(before.body.events.map((x: { id: number }) => x.id)).toContain(e.id);
      await gw.api('DELETE', `/events/${e.id}`, { token: 'editor' });
      for (const token of [undefined, 'editor']) {
        const after = await gw.api('GET', '/events', { query: window, token });
        expect(after.body.events.map((x: { id: number }) => x.id)).not.toContain(e.id);
      }
    });

    it('force=true deletes permanently (from the trash or directly); then GET is 404', async () => {
      const trashed = await h.createEvent();
      await gw.api('DELETE', `/events/${trashed.id}`, { token: 'editor' });
      const forced = await gw.api('DELETE', `/events/${trashed.id}`, { token: 'editor', query: { force: true } });
      expect(forced.status).toBe(200);
      expect(forced.body.id).toBe(trashed.id);
      expect((await h.getEvent(trashed.id)).body).toEqual(notFound(trashed.id));

      const direct = await h.createEvent({ title: 'Direct Force' });
      const res = await gw.api('DELETE', `/events/${direct.id}`, { token: 'editor', query: { force: 'true' } });
      expect(res.status).toBe(200);
      const gone = await h.getEvent(direct.id, { token: 'editor' });
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(notFound(direct.id));
      const deleteAgain = await gw.api('DELETE', `/events/${direct.id}`, { token: 'editor' });
      expect(deleteAgain.status).toBe(404);
      expect(deleteAgain.body).toEqual(notFound(direct.id));
      // Its slug is free again.
      expect((await h.createEvent({ title: 'Direct Force' })).slug).toBe('direct-force');
    });

    it('force in a JSON body works like the query parameter', async () => {
      const e = await h.createEvent();
      const res = await gw.api('DELETE', `/events/${e.id}`, { token: 'editor', body: { force: true } });
      expect(res.status).toBe(200);
      expect((await h.getEvent(e.id)).status).toBe(404);
    });

    it('anonymous is 401 (existing or not); other roles 403; unknown id 404 for editors', async () => {
      const e = await h.createEvent();
      const anon = await gw.api('DELETE', `/events/${e.id}`);
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(FORBIDDEN_401);
      expect((await gw.api('DELETE', '/events/99999')).body).toEqual(FORBIDDEN_401);
      const author = await gw.api('DELETE', `/events/${e.id}`, { token: await gw.token('author', 'deleting-author') });
      expect(author.status).toBe(403);
      expect(author.body).toEqual(FORBIDDEN_403);
      expect((await h.getEvent(e.id)).body.status).toBe('publish');
      const unknown = await gw.api('DELETE', '/events/99999', { token: 'editor' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(notFound(99999));
    });

    it("a venue's id is 400 rest-invalid-event-id and the venue survives", async () => {
      const venue = await h.createVenue();
      const res = await gw.api('DELETE', `/events/${venue.id}`, { token: 'editor' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_EVENT_ID);
      expect((await gw.api('GET', `/venues/${venue.id}`)).status).toBe(200);
    });

    it('a non-numeric id is 404 rest_no_route', async () => {
      const res = await gw.api('DELETE', '/events/abc', { token: 'editor' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NO_ROUTE);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// GET /events: its own table, so that totals are exact
// ---------------------------------------------------------------------------------------------

describe('GET /events (list basics)', () => {
  const gw = useGateway();
  const h = helpers(gw);

  /** 11 published events at day(30+i) 10:00 for i = 0..10, created out of order. */
  const published: { id: number; start: string }[] = [];
  let draftId = 0;
  let pastId = 0;
  let ruId = 0;
  const inOrder = () => [...published].sort((a, b) => a.start.localeCompare(b.start)).map((e) => e.id);
  const ids = (res: ApiResponse) => res.body.events.map((e: { id: number }) => e.id);

  beforeAll(async () => {
    for (const i of [5, 2, 9, 0, 7, 1, 10, 3, 8, 4, 6]) {
      const start = `${day(30 + i)} 10:00:00`;
      const e = await h.createEvent({ title: `List Event ${i}`, start_date: start, end_date: `${day(30 + i)} 11:00:00` });
      published.push({ id: e.id, start });
    }
    draftId = (await h.createEvent({ title: 'List Draft', status: 'draft', start_date: `${day(31)} 12:00`, end_date: `${day(31)} 13:00` })).id;
    pastId = (await h.createEvent({ title: 'List Past', start_date: '2020-01-01 10:00', end_date: '2020-01-01 11:00' })).id;
    ruId = (await h.createEvent({ title: 'Список', start_date: `${day(33)} 12:00`, end_date: `${day(33)} 13:00` }, 'ru')).id;
  }, 120_000);

  it('anonymous, defaults: 9 per page in start order, totals in body and headers, next link only', async () => {
    const res = await gw.api('GET', '/events');
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
    expect(ids(res)).toEqual(inOrder().slice(0, 9));
    expect(res.body.total).toBe(11);
    expect(res.body.total_pages).toBe(2);
    expect(res.headers.get('x-tec-total')).toBe('11');
    expect(res.headers.get('x-tec-totalpages')).toBe('2');
    for (const e of res.body.events) {
      expect(Object.keys(e)).toEqual(EVENT_KEYS);
      expect(e.json_ld).toBeUndefined();
    }
    const rest = new URL(res.body.rest_url);
    expect(`${rest.origin}${rest.pathname}`).toBe(`${gw.url('/events')}/`);
    expect(rest.searchParams.get('page')).toBe('1');
    expect(rest.searchParams.get('per_page')).toBe('9');
    expect(rest.searchParams.get('status')).toBe('publish');
    expect(rest.searchParams.get('start_date')).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
    expect(rest.searchParams.get('end_date')).toMatch(/^\d{4}-\d{2}-\d{2} 23:59:59$/);
    const next = new URL(res.body.next_rest_url);
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('per_page')).toBe('9');
  });

  it('the default window starts yesterday and ends 24 months ahead', async () => {
    const res = await gw.api('GET', '/events');
    const rest = new URL(res.body.rest_url);
    const now = new Date();
    expect(rest.searchParams.get('start_date')).toBe(`${day(-1, now)} 00:00:00`);
    const end = new Date(Date.UTC(now.getUTCFullYear() + 2, now.getUTCMonth(), now.getUTCDate()));
    expect(rest.searchParams.get('end_date')).toBe(`${end.toISOString().slice(0, 10)} 23:59:59`);
  });

  it('the default window excludes a past event; an explicit window includes it', async () => {
    const all = await gw.api('GET', '/events', { query: { per_page: 50 } });
    expect(ids(all)).not.toContain(pastId);
    const past = await gw.api('GET', '/events', { query: { start_date: '2019-12-31', end_date: '2020-01-02' } });
    expect(past.status).toBe(200);
    expect(ids(past)).toEqual([pastId]);
    expect(past.body.total).toBe(1);
  });

  it('anonymous lists never show drafts; editors see them', async () => {
    const anon = await gw.api('GET', '/events', { query: { per_page: 50 } });
    expect(ids(anon)).toEqual(inOrder());
    expect(ids(anon)).not.toContain(draftId);
    const editor = await gw.api('GET', '/events', { query: { per_page: 50 }, token: 'editor' });
    expect(editor.status).toBe(200);
    expect(ids(editor)).toContain(draftId);
    expect(editor.body.total).toBe(12);
    const sorted = editor.body.events.map((e: { utc_start_date: string }) => e.utc_start_date);
    expect(sorted).toEqual([...sorted].sort());
    // An anonymous caller cannot ask for drafts.
    const sneaky = await gw.api('GET', '/events', { query: { status: 'draft' } });
    expectInvalidParams(sneaky, 'status');
  });

  it('per_page and page: the last page has a previous link without page, and no next link', async () => {
    const res = await gw.api('GET', '/events', { query: { page: 2 } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
    expect(ids(res)).toEqual(inOrder().slice(9));
    const previous = new URL(res.body.previous_rest_url);
    expect(previous.searchParams.has('page')).toBe(false);
    expect(previous.searchParams.get('per_page')).toBe('9');
  });

  it('a middle page has both links, pointing at its neighbours', async () => {
    const res = await gw.api('GET', '/events', { query: { per_page: 4, page: 2 } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
    expect(ids(res)).toEqual(inOrder().slice(4, 8));
    expect([res.body.total, res.body.total_pages]).toEqual([11, 3]);
    expect([res.headers.get('x-tec-total'), res.headers.get('x-tec-totalpages')]).toEqual(['11', '3']);
    expect(new URL(res.body.next_rest_url).searchParams.get('page')).toBe('3');
    expect(new URL(res.body.previous_rest_url).searchParams.has('page')).toBe(false);
    const last = await gw.api('GET', '/events', { query: { per_page: 4, page: 3 } });
    expect(ids(last)).toEqual(inOrder().slice(8));
    expect(last.body.next_rest_url).toBeUndefined();
    expect(new URL(last.body.previous_rest_url).searchParams.get('page')).toBe('2');
    // Following the links walks the same pages.
    const followed = await gw.api('GET', res.body.next_rest_url);
    expect(ids(followed)).toEqual(ids(last));
  });

  it('a page past the end is 404 event-archive-page-not-found', async () => {
    const res = await gw.api('GET', '/events', { query: { per_page: 4, page: 4 } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(PAGE_NOT_FOUND);
    expect((await gw.api('GET', '/events', { query: { page: 99 } })).body).toEqual(PAGE_NOT_FOUND);
  });

  it('bad paging parameters are 400 rest_invalid_param naming them', async () => {
    const res = await gw.api('GET', '/events', { query: { per_page: 'abc' } });
    expectInvalidParams(res, 'per_page');
    expect(res.body.data.details).toEqual([]);
    for (const page of ['0', '-1', 'foo']) expectInvalidParams(await gw.api('GET', '/events', { query: { page } }), 'page');
    expectInvalidParams(await gw.api('GET', '/events', { query: { per_page: 0 } }), 'per_page');
  });

  it('per_page=100 is capped at 50', async () => {
    const res = await gw.api('GET', '/events', { query: { per_page: 100 } });
    expect(res.status).toBe(200);
    expect(new URL(res.body.rest_url).searchParams.get('per_page')).toBe('50');
    expect(res.body.events).toHaveLength(11);
    expect(res.body.total_pages).toBe(1);
    expect(res.body.next_rest_url).toBeUndefined();
  });

  it('start_date/end_date select whole days (inclusive) and are echoed day-rounded', async () => {
    const res = await gw.api('GET', '/events', { query: { start_date: `${day(32)} 15:00`, end_date: `${day(34)} 08:00` } });
    expect(res.status).toBe(200);
    const expected = published.filter((e) => e.start >= `${day(32)} 00:00:00` && e.start <= `${day(34)} 23:59:59`);
    expect(expected).toHaveLength(3);
    expect(ids(res)).toEqual(expected.sort((a, b) => a.start.localeCompare(b.start)).map((e) => e.id));
    expect(res.body.total).toBe(3);
    const rest = new URL(res.body.rest_url);
    expect(rest.searchParams.get('start_date')).toBe(`${day(32)} 00:00:00`);
    expect(rest.searchParams.get('end_date')).toBe(`${day(34)} 23:59:59`);
    expectInvalidParams(await gw.api('GET', '/events', { query: { start_date: 'before my birthday' } }), 'start_date');
  });

  it('an empty result is 200 with [], 0, 0 and no links', async () => {
    const res = await gw.api('GET', '/events', { query: { start_date: '2030-01-01', end_date: '2030-01-02' } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'total', 'total_pages']);
    expect(res.body).toMatchObject({ events: [], total: 0, total_pages: 0 });
    expect([res.headers.get('x-tec-total'), res.headers.get('x-tec-totalpages')]).toEqual(['0', '0']);
  });

  it('lists see only the request language', async () => {
    const en = await gw.api('GET', '/events', { query: { per_page: 50 } });
    expect(ids(en)).not.toContain(ruId);
    const ru = await gw.api('GET', '/events', { lang: 'ru' });
    expect(ids(ru)).toEqual([ruId]);
    expect(new URL(ru.body.rest_url).pathname).toBe(new URL(`${gw.url('/events', 'ru')}/`).pathname);
    const viaQuery = await gw.api('GET', '/events', { query: { ml_language: 'ru' } });
    expect(ids(viaQuery)).toEqual([ruId]);
    const lt = await gw.api('GET', '/events', { lang: 'lt' });
    expect(lt.body).toMatchObject({ events: [], total: 0, total_pages: 0 });
  });

  it('HEAD returns the headers with an empty body', async () => {
    const get = await gw.api('GET', '/events');
    const res = await gw.api('HEAD', '/events');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(res.headers.get('x-tec-total')).toBe(get.headers.get('x-tec-total'));
    expect(res.headers.get('x-tec-totalpages')).toBe(get.headers.get('x-tec-totalpages'));
    expect(res.headers.get('x-tec-total')).toBe('11');
  });
});

describe('restoring an event from the trash', () => {
  const gw = useGateway();

  it('takes its original slug back (or the next free one), as venues and organizers do', async () => {
    const body = { title: 'Restored Recital', start_date: '2031-03-01 18:00:00', end_date: '2031-03-01 20:00:00' };
    const made = await gw.api('POST', '/events', { body, token: 'editor' });
    expect(made.body.slug).toBe('restored-recital');
    const trashed = await gw.api('DELETE', `/events/${made.body.id}`, { token: 'editor' });
    expect(trashed.body.slug).toBe('restored-recital__trashed');
    // Meanwhile another event takes the slug; then the first comes back.
    const other = await gw.api('POST', '/events', { body, token: 'editor' });
    expect(other.body.slug).toBe('restored-recital');
    const restored = await gw.api('PATCH', `/events/${made.body.id}`, { body: { status: 'publish' }, token: 'editor' });
    expect(restored.status).toBe(200);
    expect(restored.body.slug).toBe('restored-recital-2');
    expect((await gw.api('GET', '/events/by-slug/restored-recital-2')).body.id).toBe(made.body.id);
  });
});
