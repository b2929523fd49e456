// Every GET /events parameter of docs/tec-behaviour.md §4.1.1 through the real local HTTP gateway and a fresh
// DynamoDB table: exact ids and order, `total`, `total_pages`, the X-TEC-* headers, the effective
// query carried by rest_url / next_rest_url, and 400 rest_invalid_param naming the parameter for
// bad values. Totals are checked again after updates that move events between the lists (the
// per-filter index partitions and per-month count buckets of lib/logic/event-list.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway, type ApiOptions, type ApiResponse, type GatewayHarness, type Lang } from '../support/gateway.js';
import { createAsEditor, expectInvalidParams, PAGE_NOT_FOUND } from '../support/expect.js';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const pad2 = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD' of today (UTC, the test site's zone) plus `days`. */
function day(days: number, from = new Date()): string {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

/** The day the default window ends: today + 24 months (the day clamps to the month's end). */
function defaultEndDay(now = new Date()): string {
  const y = now.getUTCFullYear() + 2;
  const m = now.getUTCMonth();
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return `${y}-${pad2(m + 1)}-${pad2(Math.min(now.getUTCDate(), last))}`;
}

/** The default window as TEC echoes it: start of yesterday, end of the day 24 months ahead. */
const defaultWindow = (): [string, string][] => [
  ['start_date', `${day(-1)} 00:00:00`],
  ['end_date', `${defaultEndDay()} 23:59:59`],
];

const idsOf = (res: ApiResponse): number[] => (res.body?.events ?? []).map((e: { id: number }) => e.id);

/** A 200 list page with exactly these ids in this order, and these totals in body and headers. */
function expectPage(res: ApiResponse, ids: number[], total: number, perPage = 9) {
  expect(res.status, res.text).toBe(200);
  expect(idsOf(res)).toEqual(ids);
  const pages = Math.ceil(total / perPage);
  expect({ total: res.body.total, total_pages: res.body.total_pages }).toEqual({ total, total_pages: pages });
  expect(res.headers.get('x-tec-total')).toBe(String(total));
  expect(res.headers.get('x-tec-totalpages')).toBe(String(pages));
}

/** The query of a list link, decoded, in order. */
const queryOf = (url: string): [string, string][] => [...new URL(url).searchParams.entries()];

/** rest_url is `<base>/events/?<effective query>`, exactly. */
function expectRestQuery(gw: GatewayHarness, res: ApiResponse, expected: [string, string][], lang: Lang = 'en') {
  const rest = new URL(res.body.rest_url);
  expect(`${rest.origin}${rest.pathname}`).toBe(`${gw.url('/events', lang)}/`);
  expect(queryOf(res.body.rest_url)).toEqual(expected);
}

function helpers(gw: GatewayHarness) {
  const create = (path: string, body: Record<string, unknown>, lang?: Lang) => createAsEditor(gw, path, body, lang);
  return {
    create,
    /** POST /events; `start`/`end` are wall times. Returns the id. */
    async event(title: string, start: string, end: string, more: Record<string, unknown> = {}, lang?: Lang): Promise<number> {
      return (await create('/events', { title, start_date: start, end_date: end, ...more }, lang)).id;
    },
    async update(id: number, body: Record<string, unknown>) {
      const res = await gw.api('POST', `/events/${id}`, { body, token: 'editor' });
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
    list: (query: ApiOptions['query'] = {}, o: Omit<ApiOptions, 'query'> = {}) => gw.api('GET', '/events', { query, ...o }),
  };
}

// ---------------------------------------------------------------------------------------------
// Dates: start_date / end_date / strict_dates / starts_* / ends_* and the default window
// ---------------------------------------------------------------------------------------------

describe('GET /events date parameters', () => {
  const gw = useGateway();
  const h = helpers(gw);
  const E: Record<string, number> = {};
  let lastDay = '';

  beforeAll(async () => {
    lastDay = defaultEndDay();
    // Created out of start order, so that id order is not start order.
    E.d11 = await h.event('Day eleven', `${day(11)} 10:00:00`, `${day(11)} 11:00:00`);
    E.old = await h.event('Long ago', '2020-01-01 10:00:00', '2020-01-01 11:00:00');
    E.d10b = await h.event('Day ten evening', `${day(10)} 20:00:00`, `${day(10)} 20:30:00`);
    E.pastLong = await h.event('Three days ago', `${day(-3)} 10:00:00`, `${day(-3)} 11:00:00`);
    E.multi = await h.event('Multi-day festival', `${day(12)} 10:00:00`, `${day(15)} 10:00:00`);
    E.ongoing = await h.event('Ongoing exhibition', `${day(-2)} 10:00:00`, `${day(2)} 10:00:00`);
    E.yesterday = await h.event('Yesterday morning', `${day(-1)} 08:00:00`, `${day(-1)} 09:00:00`);
    E.d10a = await h.event('Day ten afternoon', `${day(10)} 16:00:00`, `${day(10)} 16:30:00`);
    E.far = await h.event('Far future', `${day(800)} 10:00:00`, `${day(800)} 11:00:00`);
    E.d20 = await h.event('Day twenty', `${day(20)} 09:00:00`, `${day(20)} 10:00:00`);
    E.lastDay = await h.event('Last day of the window', `${lastDay} 10:00:00`, `${lastDay} 11:00:00`);
    // Starts inside the default window but ends after it.
    E.edge = await h.event('Runs past the window', `${lastDay} 20:00:00`, `${day(2, new Date(`${lastDay}T00:00:00Z`))} 10:00:00`);
  }, 120_000);

  const upcoming = () => [E.yesterday, E.d10a, E.d10b, E.d11, E.multi, E.d20, E.lastDay];

  it('default window: from the start of yesterday to 24 months ahead; earlier starts (even ongoing) and events ending after it are neither listed nor counted', async () => {
    const res = await h.list();
    expectPage(res, upcoming(), 7);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'total', 'total_pages']);
    expectRestQuery(gw, res, [['page', '1'], ['per_page', '9'], ...defaultWindow(), ['status', 'publish']]);
    for (const id of [E.old, E.pastLong, E.ongoing, E.far, E.edge]) expect(idsOf(res)).not.toContain(id);
  });

  it('start_date and end_date cover whole days by default, and are echoed day-rounded', async () => {
    const res = await h.list({ start_date: `${day(10)} 15:00`, end_date: `${day(11)} 08:00` });
    expectPage(res, [E.d10a, E.d10b, E.d11], 3);
    expectRestQuery(gw, res, [
      ['page', '1'],
      ['per_page', '9'],
      ['start_date', `${day(10)} 00:00:00`],
      ['end_date', `${day(11)} 23:59:59`],
      ['status', 'publish'],
    ]);
  });

  it('strict_dates=true uses the times as given (docs/tec-behaviour.md §4.1.3 example)', async () => {
    const inclusive = await h.list({ start_date: `${day(10)} 15:00:00`, end_date: `${day(10)} 18:00:00` });
    expectPage(inclusive, [E.d10a, E.d10b], 2);
    for (const strict of ['true', '1', 'yes']) {
      const res = await h.list({ start_date: `${day(10)} 15:00:00`, end_date: `${day(10)} 18:00:00`, strict_dates: strict });
      expectPage(res, [E.d10a], 1);
      expectRestQuery(gw, res, [
        ['page', '1'],
        ['per_page', '9'],
        ['start_date', `${day(10)} 15:00:00`],
        ['end_date', `${day(10)} 18:00:00`],
        ['status', 'publish'],
        ['strict_dates', 'true'],
      ]);
    }
    // strict_dates=false is the inclusive default and is not echoed.
    const off = await h.list({ start_date: `${day(10)} 15:00:00`, end_date: `${day(10)} 18:00:00`, strict_dates: 'false' });
    expectPage(off, [E.d10a, E.d10b], 2);
    expect(queryOf(off.body.rest_url).map(([k]) => k)).not.toContain('strict_dates');
    // Strict start: an event that starts one second before is out.
    const from = await h.list({ start_date: `${day(10)} 16:00:01`, end_date: `${day(11)} 23:00:00`, strict_dates: 'true' });
    expectPage(from, [E.d10b, E.d11], 2);
  });

  it('end_date filters on the end: an event that starts inside but ends after is excluded and not counted', async () => {
    expectPage(await h.list({ start_date: day(12), end_date: day(13) }), [], 0);
    expectPage(await h.list({ start_date: day(11), end_date: day(14) }), [E.d11], 1);
    expectPage(await h.list({ start_date: day(11), end_date: day(15) }), [E.d11, E.multi], 2);
    // The same at the end of the default window: given explicitly, the edge event still ends too late.
    expectPage(await h.list({ start_date: lastDay, end_date: lastDay }), [E.lastDay], 1);
    expectPage(await h.list({ start_date: lastDay, end_date: day(3, new Date(`${lastDay}T00:00:00Z`)) }), [E.lastDay, E.edge], 2);
  });

  it('only one of start_date / end_date: the other comes from the default window', async () => {
    const from = await h.list({ start_date: day(-2) });
    expectPage(from, [E.ongoing, ...upcoming()], 8);
    expectRestQuery(gw, from, [['page', '1'], ['per_page', '9'], ['start_date', `${day(-2)} 00:00:00`], defaultWindow()[1], ['status', 'publish']]);
    const to = await h.list({ end_date: day(11) });
    expectPage(to, [E.yesterday, E.d10a, E.d10b, E.d11], 4);
    expectRestQuery(gw, to, [['page', '1'], ['per_page', '9'], defaultWindow()[0], ['end_date', `${day(11)} 23:59:59`], ['status', 'publish']]);
  });

  it('an explicit window in the past lists past events', async () => {
    const res = await h.list({ start_date: '2019-12-31', end_date: '2020-01-02' });
    expectPage(res, [E.old], 1);
    const wide = await h.list({ start_date: '2019-01-01', end_date: day(0), per_page: 50 });
    expectPage(wide, [E.old, E.pastLong, E.yesterday], 3, 50);
  });

  it('starts_after: start > 23:59:59 of that day; drops the default window (no end bound, no echoed dates)', async () => {
    const res = await h.list({ starts_after: day(10) });
    expectPage(res, [E.d11, E.multi, E.d20, E.lastDay, E.edge, E.far], 6);
    expectRestQuery(gw, res, [
      ['page', '1'],
      ['per_page', '9'],
      ['status', 'publish'],
      ['starts_after', `${day(10)} 23:59:59`],
    ]);
  });

  it('starts_before: start < 23:59:59 of that day; past events appear because the default window is dropped', async () => {
    const res = await h.list({ starts_before: day(-1) });
    expectPage(res, [E.old, E.pastLong, E.ongoing, E.yesterday], 4);
    expectRestQuery(gw, res, [
      ['page', '1'],
      ['per_page', '9'],
      ['status', 'publish'],
      ['starts_before', `${day(-1)} 23:59:59`],
    ]);
    // Strict: exactly before the given instant (an event starting at that instant is out).
    const strict = await h.list({ starts_before: `${day(10)} 16:00:00`, strict_dates: 'true' });
    expectPage(strict, [E.old, E.pastLong, E.ongoing, E.yesterday], 4);
    expectRestQuery(gw, strict, [
      ['page', '1'],
      ['per_page', '9'],
      ['status', 'publish'],
      ['starts_before', `${day(10)} 16:00:00`],
      ['strict_dates', 'true'],
    ]);
    const justAfter = await h.list({ starts_before: `${day(10)} 16:00:01`, strict_dates: 'true' });
    expectPage(justAfter, [E.old, E.pastLong, E.ongoing, E.yesterday, E.d10a], 5);
  });

  it('ends_before: end < 23:59:59 of that day; the default window is dropped', async () => {
    const before = await h.list({ ends_before: day(1) });
    expectPage(before, [E.old, E.pastLong, E.yesterday], 3);
    expectRestQuery(gw, before, [
      ['page', '1'],
      ['per_page', '9'],
      ['status', 'publish'],
      ['ends_before', `${day(1)} 23:59:59`],
    ]);
  });

  it('ends_after: end > 23:59:59 of that day; the default window is dropped', async () => {
    const after = await h.list({ ends_after: day(14) });
    expectPage(after, [E.multi, E.d20, E.lastDay, E.edge, E.far], 5);
    expectRestQuery(gw, after, [
      ['page', '1'],
      ['per_page', '9'],
      ['status', 'publish'],
      ['ends_after', `${day(14)} 23:59:59`],
    ]);
  });

  it('starts_before + ends_after: the events going on now', async () => {
    const ongoing = await h.list({ starts_before: day(-1), ends_after: day(0) });
    expectPage(ongoing, [E.ongoing], 1);
  });

  it('starts_* / ends_* combine with AND, and with an explicit start_date (which stays)', async () => {
    const res = await h.list({ starts_after: day(9), ends_before: day(11) });
    expectPage(res, [E.d10a, E.d10b, E.d11], 3);
    expectRestQuery(gw, res, [
      ['page', '1'],
      ['per_page', '9'],
      ['status', 'publish'],
      ['starts_after', `${day(9)} 23:59:59`],
      ['ends_before', `${day(11)} 23:59:59`],
    ]);
    const withStart = await h.list({ start_date: day(-3), ends_after: day(1), per_page: 50 });
    expectPage(withStart, [E.ongoing, ...upcoming().slice(1), E.edge, E.far], 9, 50);
    expectRestQuery(gw, withStart, [
      ['page', '1'],
      ['per_page', '50'],
      ['start_date', `${day(-3)} 00:00:00`],
      ['status', 'publish'],
      ['ends_after', `${day(1)} 23:59:59`],
    ]);
  });

  it('an empty window (start after end) is 200 with no events', async () => {
    const inverted = await h.list({ start_date: day(20), end_date: day(10) });
    expectPage(inverted, [], 0);
    const crossed = await h.list({ starts_after: day(20), starts_before: day(10) });
    expectPage(crossed, [], 0);
  });

  it('bad dates and a bad strict_dates are 400 rest_invalid_param naming the parameter', async () => {
    for (const name of ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after']) {
      const res = await h.list({ [name]: 'before my birthday' });
      expectInvalidParams(res, name);
      expect(res.body.data.details).toEqual([]);
    }
    expectInvalidParams(await h.list({ start_date: '2027-02-30' }), 'start_date');
    expectInvalidParams(await h.list({ strict_dates: 'maybe' }), 'strict_dates');
    expectInvalidParams(await h.list({ start_date: 'nope', end_date: 'nope' }), 'start_date', 'end_date');
  });
});

// ---------------------------------------------------------------------------------------------
// Filters: search, terms, venue, organizer, featured, status, include, post_parent, geoloc,
// ticketed, hide_from_listings, combinations and pagination
// ---------------------------------------------------------------------------------------------

describe('GET /events filters', () => {
  const gw = useGateway({ stream: true });
  const h = helpers(gw);
  const E: Record<string, number> = {};
  const V: Record<string, number> = {};
  const O: Record<string, number> = {};
  const C: Record<string, number> = {};
  const T: Record<string, number> = {};
  const VILNIUS = { lat: 54.6872, lng: 25.2797 };
  const KAUNAS = { lat: 54.8985, lng: 23.9036 }; // about 90 km from Vilnius

  beforeAll(async () => {
    V.vilnius = (await h.create('/venues', { venue: 'Vilnius Hall', city: 'Vilnius', geo_lat: VILNIUS.lat, geo_lng: VILNIUS.lng })).id;
    V.kaunas = (await h.create('/venues', { venue: 'Kaunas Arena', city: 'Kaunas', geo_lat: KAUNAS.lat, geo_lng: KAUNAS.lng })).id;
    V.nowhere = (await h.create('/venues', { venue: 'Unmapped Barn' })).id;
    O.a = (await h.create('/organizers', { organizer: 'Org A' })).id;
    O.b = (await h.create('/organizers', { organizer: 'Org B' })).id;
    O.c = (await h.create('/organizers', { organizer: 'Org C' })).id;
    C.music = (await h.create('/categories', { name: 'Music' })).id;
    C.theatre = (await h.create('/categories', { name: 'Theatre' })).id;
    C.sport = (await h.create('/categories', { name: 'Sport' })).id;
    C.ltOpera = (await h.create('/categories', { name: 'Opera' }, 'lt')).id;
    T.free = (await h.create('/tags', { name: 'Free' })).id;
    T.kids = (await h.create('/tags', { name: 'Kids' })).id;
    const at = (d: number, from: string, to: string) => [`${day(d)} ${from}:00`, `${day(d)} ${to}:00`] as const;

    // Created out of start order.
    E.e5 = await h.event('Kids Theatre Workshop', ...at(9, '10:00', '12:00'), { organizer: [O.b, O.c], categories: [C.theatre, C.music], tags: [T.kids] });
    E.e2 = await h.event('Rock Concert', ...at(6, '20:00', '23:00'), { venue: V.kaunas, organizer: [O.b], categories: [C.music], tags: [T.kids] });
    E.e7 = await h.event('Opera Gala', ...at(11, '19:00', '23:00'), { venue: V.vilnius, categories: [C.music], tags: [T.free], excerpt: 'A gala evening' });
    E.e1 = await h.event('Jazz Night', ...at(5, '19:00', '22:00'), {
      venue: V.vilnius,
      organizer: [O.a],
      categories: [C.music],
      tags: [T.free],
      featured: true,
      description: 'An evening of smooth JAZZ standards',
    });
    E.e3 = await h.event('Hamlet', ...at(7, '19:00', '22:00'), { venue: V.nowhere, organizer: [O.a], categories: [C.theatre], tags: [T.free, T.kids], featured: true });
    E.e6 = await h.event('City Marathon', ...at(10, '08:00', '14:00'), { venue: V.kaunas, categories: [C.sport], featured: true });
    E.e4 = await h.event('Football Match', ...at(8, '15:00', '17:00'), { venue: V.vilnius, organizer: [O.c], categories: [C.sport] });
    // Not visible to anonymous lists.
    E.draft = await h.event('Draft Jazz', ...at(12, '19:00', '21:00'), { status: 'draft', venue: V.vilnius, categories: [C.music], tags: [T.free] });
    E.pending = await h.event('Pending Play', ...at(14, '19:00', '21:00'), { status: 'pending', categories: [C.theatre] });
    E.hidden = await h.event('Secret Jazz', ...at(13, '19:00', '21:00'), {
      venue: V.vilnius,
      organizer: [O.a],
      categories: [C.music],
      tags: [T.free],
      featured: true,
      hide_from_listings: true,
    });
    // Outside the default window.
    E.past = await h.event('Old Jazz', '2020-03-01 19:00:00', '2020-03-01 21:00:00', { venue: V.vilnius, categories: [C.music] });
    // Another language.
    E.lt = await h.event('Operos vakaras', ...at(5, '18:00', '20:00'), { categories: [C.ltOpera] }, 'lt');
    // The search index follows the table through the stream consumer.
    await gw.drain();
  }, 120_000);

  /** Every published, listed event in the default window, in start order. */
  const published = () => [E.e1, E.e2, E.e3, E.e4, E.e5, E.e6, E.e7];
  const base = (perPage = 9, status = 'publish'): [string, string][] => [['page', '1'], ['per_page', String(perPage)], ...defaultWindow(), ['status', status]];

  describe('search', () => {
    it('matches every word in title, description or excerpt, case-insensitively; echoed before status', async () => {
      const res = await h.list({ search: 'jazz' });
      expectPage(res, [E.e1], 1);
      expectRestQuery(gw, res, [['page', '1'], ['per_page', '9'], ...defaultWindow(), ['search', 'jazz'], ['status', 'publish']]);
      expectPage(await h.list({ search: 'EVENING Jazz' }), [E.e1], 1); // title + description
      expectPage(await h.list({ search: 'smooth' }), [E.e1], 1); // description only
      expectPage(await h.list({ search: 'gala EVENING' }), [E.e7], 1); // title + excerpt
      expectPage(await h.list({ search: 'evening' }), [E.e1, E.e7], 2);
      expectPage(await h.list({ search: 'jazz gala' }), [], 0); // no event has both words
      expectPage(await h.list({ search: 'xylophone' }), [], 0);
    });

    it('combines with the other filters', async () => {
      expectPage(await h.list({ search: 'evening', categories: 'music', venue: V.vilnius }), [E.e1, E.e7], 2);
      expectPage(await h.list({ search: 'evening', featured: 'true' }), [E.e1], 1);
      expectPage(await h.list({ search: 'evening', tags: 'kids' }), [], 0);
    });

    it('respects the window, statuses and hide_from_listings', async () => {
      expectPage(await h.list({ search: 'jazz', start_date: '2020-01-01' }), [E.past, E.e1], 2);
      expectPage(await h.list({ search: 'jazz' }, { token: 'editor' }), [E.e1, E.draft], 2);
    });

    it('an empty search is 400', async () => {
      expectInvalidParams(await h.list({ search: '' }), 'search');
    });

    it("finds a part of a word without case and accents, as TEC's LIKE does; the text as it is, punctuation included", async () => {
      expectPage(await h.list({ search: 'azz' }), [E.e1], 1);
      expectPage(await h.list({ search: 'JAZ' }), [E.e1], 1);
      expectPage(await h.list({ search: 'mooth' }), [E.e1], 1);
      // Far outside the default window, so that the other tests' lists do not change.
      const y2040 = { start_date: '2040-01-01', end_date: '2040-12-31' };
      const cafe = await h.event('Café Crème Matinée', '2040-05-01 10:00:00', '2040-05-01 11:00:00');
      await gw.drain();
      expectPage(await h.list({ search: 'cafe creme', ...y2040 }), [cafe], 1);
      expectPage(await h.list({ search: 'MATINEE', ...y2040 }), [cafe], 1);
      expectPage(await h.list({ search: 'café', ...y2040 }), [cafe], 1);
      expectPage(await h.list({ search: 'fé cr', ...y2040 }), [cafe], 1);
      // One term, as WordPress splits the search: its dash is not in the title.
      expectPage(await h.list({ search: 'crème-matinée!', ...y2040 }), [], 0);
      // A phrase keeps its words in order; an exclusion leaves out what has it.
      expectPage(await h.list({ search: '"creme matinee"', ...y2040 }), [cafe], 1);
      expectPage(await h.list({ search: '"matinee creme"', ...y2040 }), [], 0);
      expectPage(await h.list({ search: 'cafe -matinee', ...y2040 }), [], 0);
      expectPage(await h.list({ search: 'cafe -opera', ...y2040 }), [cafe], 1);
    });

    it('merges the words that contain a part in list order, drives by the rarest term, and pages across them', async () => {
      const y2041 = { start_date: '2041-01-01', end_date: '2041-12-31' };
      const titles = ['Nightfall Harp', 'Midnight Harp', 'Knight Oboe', 'Nightly Oboe', 'Tonight Harp', 'Fortnight Sitar', 'Harp Overnight', 'Sunrise Harp'];
      const made: number[] = [];
      for (const [i, title] of titles.entries()) made.push(await h.event(title, `2041-0${1 + (i % 8)}-10 10:00:00`, `2041-0${1 + (i % 8)}-10 11:00:00`));
      await gw.drain();
      const night = made.filter((_, i) => titles[i]!.toLowerCase().includes('night'));
      // Six words contain `ight`: their partitions merged by start, each event once.
      expectPage(await h.list({ search: 'ight', ...y2041 }), night, night.length);
      expectPage(await h.list({ search: 'IGHT', per_page: 2, page: 2, ...y2041 }), night.slice(2, 4), night.length, 2);
      expectPage(await h.list({ search: 'ight', per_page: 4, page: 2, ...y2041 }), night.slice(4), night.length, 4);
      // Two terms: `harp` (one word) drives, `ight` is checked by its words' partitions.
      const harpNight = made.filter((_, i) => /night/i.test(titles[i]!) && /harp/i.test(titles[i]!));
      expectPage(await h.list({ search: 'ight harp', ...y2041 }), harpNight, harpNight.length);
      expectPage(await h.list({ search: 'harp -ight', ...y2041 }), [made[7]!], 1);
      expectPage(await h.list({ search: 'oboe -knight', ...y2041 }), [made[3]!], 1);
      // A term of one character names nearly every word: the list is read and the records checked.
      expectPage(
        await h.list({ search: 'r', ...y2041 }),
        made.filter((_, i) => titles[i]!.toLowerCase().includes('r')),
        6,
      );
      expectPage(await h.list({ search: 'harp -r', ...y2041 }), [], 0);
      // A term no word contains finds nothing, without reading a list.
      expectPage(await h.list({ search: 'harpsichord', ...y2041 }), [], 0);
      expectPage(await h.list({ search: 'ght hx', ...y2041 }), [], 0);
    });

    it('reads its own writes: a created, renamed or trashed event is searched as it is, before the stream consumer runs', async () => {
      const y2042 = { start_date: '2042-01-01', end_date: '2042-12-31' };
      const id = await h.event('Fleeting Theorbo', '2042-05-01 10:00:00', '2042-05-01 11:00:00');
      expectPage(await h.list({ search: 'theorb', ...y2042 }), [id], 1);
      expectPage(await h.list({ search: 'eorbo', ...y2042 }), [id], 1);
      // Several terms, a phrase and case, before the consumer has seen the words.
      expectPage(await h.list({ search: 'FLEET theorb', ...y2042 }), [id], 1);
      expectPage(await h.list({ search: '"fleeting THEORBO"', ...y2042 }), [id], 1);
      expectPage(await h.list({ search: '"theorbo fleeting"', ...y2042 }), [], 0);
      expectPage(await h.list({ search: 'theorbo -fleet', ...y2042 }), [], 0);
      expect((await gw.api('POST', `/events/${id}`, { token: 'editor', body: { title: 'Fleeting Lute' } })).status).toBe(200);
      expectPage(await h.list({ search: 'theorbo', ...y2042 }), [], 0);
      expectPage(await h.list({ search: 'lute', ...y2042 }), [id], 1);
      expectPage(await h.list({ search: 'lu', ...y2042 }), [id], 1);
      expect((await gw.api('DELETE', `/events/${id}`, { token: 'editor' })).status).toBe(200);
      expectPage(await h.list({ search: 'lute', ...y2042 }), [], 0);
      expectPage(await h.list({ search: 'lu', ...y2042 }), [], 0);
      // Once the consumer has caught up, the index says the same.
      await gw.drain();
      expectPage(await h.list({ search: 'lute', ...y2042 }), [], 0);
      expect((await gw.api('POST', `/events/${id}`, { token: 'editor', body: { status: 'publish', title: 'Fleeting Cittern' } })).status).toBe(200);
      expectPage(await h.list({ search: 'cittern', ...y2042 }), [id], 1);
      await gw.drain();
      expectPage(await h.list({ search: 'cittern', ...y2042 }), [id], 1);
      expectPage(await h.list({ search: 'cit', ...y2042 }), [id], 1);
      expectPage(await h.list({ search: 'lute', ...y2042 }), [], 0);
      // An edit of the excerpt alone (one UpdateItem, no transaction) is searched at once too.
      expect((await gw.api('POST', `/events/${id}`, { token: 'editor', body: { excerpt: 'With a viola da gamba' } })).status).toBe(200);
      expectPage(await h.list({ search: 'gamba cittern', ...y2042 }), [id], 1);
      expectPage(await h.list({ search: 'viola', ...y2042 }), [id], 1);
      expect((await gw.api('POST', `/events/${id}`, { token: 'editor', body: { excerpt: 'With a lute again' } })).status).toBe(200);
      expectPage(await h.list({ search: 'viola', ...y2042 }), [], 0);
      await gw.drain();
      expectPage(await h.list({ search: 'viola', ...y2042 }), [], 0);
      expectPage(await h.list({ search: 'ittern', ...y2042 }), [id], 1);
    });

    it('follows edits, trash and restore of an event through the stream consumer', async () => {
      const y2041 = { start_date: '2041-01-01', end_date: '2041-12-31' };
      const id = await h.event('Ephemeral Harpsichord', '2041-05-01 10:00:00', '2041-05-01 11:00:00');
      await gw.drain();
      expectPage(await h.list({ search: 'harpsichord', ...y2041 }), [id], 1);
      expect((await gw.api('POST', `/events/${id}`, { token: 'editor', body: { title: 'Ephemeral Clavichord' } })).status).toBe(200);
      await gw.drain();
      expectPage(await h.list({ search: 'harpsichord', ...y2041 }), [], 0);
      expectPage(await h.list({ search: 'clavichord', ...y2041 }), [id], 1);
      expect((await gw.api('DELETE', `/events/${id}`, { token: 'editor' })).status).toBe(200);
      await gw.drain();
      expectPage(await h.list({ search: 'clavichord', ...y2041 }), [], 0);
      expect((await gw.api('POST', `/events/${id}`, { token: 'editor', body: { status: 'publish' } })).status).toBe(200);
      await gw.drain();
      expectPage(await h.list({ search: 'ephemeral clavichord', ...y2041 }), [id], 1);
    });
  });

  describe('categories and tags', () => {
    it('categories by slug and by id: OR within; echoed as given', async () => {
      const bySlug = await h.list({ categories: 'music' });
      expectPage(bySlug, [E.e1, E.e2, E.e5, E.e7], 4);
      expectRestQuery(gw, bySlug, [...base(), ['categories', 'music']]);
      const byId = await h.list({ categories: C.music });
      expectPage(byId, [E.e1, E.e2, E.e5, E.e7], 4);
      expectRestQuery(gw, byId, [...base(), ['categories', String(C.music)]]);
      expectPage(await h.list({ categories: 'MUSIC' }), [E.e1, E.e2, E.e5, E.e7], 4);
      expectPage(await h.list({ categories: 'sport' }), [E.e4, E.e6], 2);
    });

    it('several categories, CSV or array: each event once, total de-duplicated', async () => {
      const both = [E.e1, E.e2, E.e3, E.e5, E.e7]; // e5 is in both
      const csv = await h.list({ categories: 'music,theatre' });
      expectPage(csv, both, 5);
      expectRestQuery(gw, csv, [...base(), ['categories', 'music,theatre']]);
      const array = await h.list({ categories: ['music', C.theatre] });
      expectPage(array, both, 5);
      expectRestQuery(gw, array, [...base(), ['categories', `music,${C.theatre}`]]);
      expectPage(await h.list({ categories: `${C.music}, ${C.theatre}` }), both, 5);
      expectPage(await h.list({ categories: [C.music, C.theatre, C.sport] }), published(), 7);
      // The same category twice (slug and id) is still one filter value.
      expectPage(await h.list({ categories: `music,${C.music}` }), [E.e1, E.e2, E.e5, E.e7], 4);
    });

    it('tags by slug and id, CSV and array: OR within', async () => {
      const kids = await h.list({ tags: 'kids' });
      expectPage(kids, [E.e2, E.e3, E.e5], 3);
      expectRestQuery(gw, kids, [...base(), ['tags', 'kids']]);
      expectPage(await h.list({ tags: T.free }), [E.e1, E.e3, E.e7], 3);
      expectPage(await h.list({ tags: `free,${T.kids}` }), [E.e1, E.e2, E.e3, E.e5, E.e7], 5);
      expectPage(await h.list({ tags: [T.free, 'kids'] }), [E.e1, E.e2, E.e3, E.e5, E.e7], 5);
    });

    it('categories AND tags', async () => {
      const res = await h.list({ categories: 'music', tags: 'free' });
      expectPage(res, [E.e1, E.e7], 2);
      expectRestQuery(gw, res, [...base(), ['categories', 'music'], ['tags', 'free']]);
      expectPage(await h.list({ categories: 'theatre,sport', tags: 'kids' }), [E.e3, E.e5], 2);
      expectPage(await h.list({ categories: 'sport', tags: 'free' }), [], 0);
    });

    it('unknown terms, a term of the other taxonomy and a slug of another language are 400', async () => {
      expectInvalidParams(await h.list({ categories: 'nope' }), 'categories');
      expectInvalidParams(await h.list({ categories: 'music,nope' }), 'categories');
      expectInvalidParams(await h.list({ categories: 987654 }), 'categories');
      expectInvalidParams(await h.list({ categories: T.free }), 'categories');
      expectInvalidParams(await h.list({ tags: 'nope' }), 'tags');
      expectInvalidParams(await h.list({ tags: C.music }), 'tags');
      expectInvalidParams(await h.list({ tags: ['free', 987654] }), 'tags');
      // `opera` is a slug in lt only.
      expectInvalidParams(await h.list({ categories: 'opera' }), 'categories');
      const lt = await h.list({ categories: 'opera' }, { lang: 'lt' });
      expectPage(lt, [E.lt], 1);
      expectRestQuery(gw, lt, [...base(), ['categories', 'opera']], 'lt');
      // …and en slugs are unknown in lt.
      expectInvalidParams(await h.list({ categories: 'music' }, { lang: 'lt' }), 'categories');
    });
  });

  describe('venue and organizer', () => {
    it('venue ids: one, CSV and array (OR); echoed as ids', async () => {
      const one = await h.list({ venue: V.vilnius });
      expectPage(one, [E.e1, E.e4, E.e7], 3);
      expectRestQuery(gw, one, [...base(), ['venue', String(V.vilnius)]]);
      const csv = await h.list({ venue: `${V.vilnius},${V.kaunas}` });
      expectPage(csv, [E.e1, E.e2, E.e4, E.e6, E.e7], 5);
      expectRestQuery(gw, csv, [...base(), ['venue', `${V.vilnius},${V.kaunas}`]]);
      expectPage(await h.list({ venue: [V.kaunas, V.vilnius] }), [E.e1, E.e2, E.e4, E.e6, E.e7], 5);
      expectPage(await h.list({ venue: V.nowhere }), [E.e3], 1);
    });

    it('organizer ids: OR within, each event once', async () => {
      const a = await h.list({ organizer: O.a });
      expectPage(a, [E.e1, E.e3], 2);
      expectRestQuery(gw, a, [...base(), ['organizer', String(O.a)]]);
      const bc = await h.list({ organizer: `${O.b},${O.c}` }); // e5 has both
      expectPage(bc, [E.e2, E.e4, E.e5], 3);
      expectPage(await h.list({ organizer: [O.b, O.c] }), [E.e2, E.e4, E.e5], 3);
    });

    it('unknown ids, ids of another kind and non-ids are 400', async () => {
      expectInvalidParams(await h.list({ venue: 987654 }), 'venue');
      expectInvalidParams(await h.list({ venue: `${V.vilnius},987654` }), 'venue');
      expectInvalidParams(await h.list({ venue: O.a }), 'venue');
      expectInvalidParams(await h.list({ venue: E.e1 }), 'venue');
      expectInvalidParams(await h.list({ venue: 'foo' }), 'venue');
      expectInvalidParams(await h.list({ organizer: 987654 }), 'organizer');
      expectInvalidParams(await h.list({ organizer: V.vilnius }), 'organizer');
      expectInvalidParams(await h.list({ organizer: 'foo' }), 'organizer');
    });
  });

  describe('featured', () => {
    it('true / "yes" list only featured events, echoed as featured=1', async () => {
      for (const featured of ['true', 'yes', '1']) {
        const res = await h.list({ featured });
        expectPage(res, [E.e1, E.e3, E.e6], 3);
        expectRestQuery(gw, res, [...base(), ['featured', '1']]);
      }
    });

    it('false / "0" list only the others, echoed as featured=0', async () => {
      for (const featured of ['false', '0', 'no']) {
        const res = await h.list({ featured });
        expectPage(res, [E.e2, E.e4, E.e5, E.e7], 4);
        expectRestQuery(gw, res, [...base(), ['featured', '0']]);
      }
    });

    it('anything else is 400', async () => {
      expectInvalidParams(await h.list({ featured: 'maybe' }), 'featured');
    });
  });

  describe('status', () => {
    it('anonymous: publish only', async () => {
      const res = await h.list({ status: 'publish' });
      expectPage(res, published(), 7);
      expectRestQuery(gw, res, base());
      for (const status of ['draft', 'publish,draft', 'any', 'foo']) expectInvalidParams(await h.list({ status }), 'status');
    });

    it('editors: default any, draft, publish,draft, any; unregistered statuses are 400', async () => {
      const all = [E.e1, E.e2, E.e3, E.e4, E.e5, E.e6, E.e7, E.draft, E.pending];
      const byDefault = await h.list({}, { token: 'editor' });
      expectPage(byDefault, all, 9);
      expectRestQuery(gw, byDefault, base(9, 'any'));
      const any = await h.list({ status: 'any' }, { token: 'editor' });
      expectPage(any, all, 9);
      expectRestQuery(gw, any, base(9, 'any'));
      const draft = await h.list({ status: 'draft' }, { token: 'editor' });
      expectPage(draft, [E.draft], 1);
      expectRestQuery(gw, draft, base(9, 'draft'));
      const two = await h.list({ status: 'publish,draft' }, { token: 'editor' });
      expectPage(two, [...published(), E.draft], 8);
      expectRestQuery(gw, two, base(9, 'publish,draft'));
      expectPage(await h.list({ status: 'pending' }, { token: 'editor' }), [E.pending], 1);
      for (const status of ['foo', 'foo, bar', 'foo, bar, publish']) expectInvalidParams(await h.list({ status }, { token: 'editor' }), 'status');
    });
  });

  describe('include', () => {
    it('lists exactly those events in start order, past ones too (the date window is ignored); CSV and array', async () => {
      const csv = await h.list({ include: `${E.e3},${E.past},${E.e1}` });
      expectPage(csv, [E.past, E.e1, E.e3], 3);
      expectRestQuery(gw, csv, [
        ['page', '1'],
        ['per_page', '9'],
        ['status', 'publish'],
        ['include', `${E.e3},${E.past},${E.e1}`],
      ]);
      expectPage(await h.list({ include: [E.e3, E.past, E.e1] }), [E.past, E.e1, E.e3], 3);
      expectPage(await h.list({ include: [E.e7, 987654] }), [E.e7], 1);
    });

    it('still applies visibility, hide_from_listings, language and the other filters', async () => {
      expectPage(await h.list({ include: `${E.draft},${E.hidden},${E.lt},${E.e2}` }), [E.e2], 1);
      expectPage(await h.list({ include: `${E.draft},${E.hidden},${E.e2}` }, { token: 'editor' }), [E.e2, E.draft], 2);
      expectPage(await h.list({ include: `${E.e1},${E.e3},${E.past}`, categories: 'music' }), [E.past, E.e1], 2);
    });

    it('non-ids are 400', async () => {
      expectInvalidParams(await h.list({ include: `foo-bar,${E.e1},89` }), 'include');
      expectInvalidParams(await h.list({ include: '0' }), 'include');
      expectInvalidParams(await h.list({ include: '-3' }), 'include');
    });
  });

  describe('post_parent', () => {
    it('an existing event: 200 with no children; echoed', async () => {
      const res = await h.list({ post_parent: E.e1 });
      expectPage(res, [], 0);
      expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'total', 'total_pages']);
      expectRestQuery(gw, res, [...base(), ['post_parent', String(E.e1)]]);
      // Any status, as TEC's validator accepts any existing event.
      expectPage(await h.list({ post_parent: E.draft }), [], 0);
    });

    it('unknown ids, non-events and non-ids are 400', async () => {
      expectInvalidParams(await h.list({ post_parent: 987654 }), 'post_parent');
      expectInvalidParams(await h.list({ post_parent: V.vilnius }), 'post_parent');
      expectInvalidParams(await h.list({ post_parent: 'foo-bar' }), 'post_parent');
    });
  });

  describe('geoloc', () => {
    it('geoloc=true: events at venues with coordinates', async () => {
      const res = await h.list({ geoloc: 'true' });
      expectPage(res, [E.e1, E.e2, E.e4, E.e6, E.e7], 5);
      expectRestQuery(gw, res, [...base(), ['geoloc', '1']]);
      // With a venue filter: the intersection (the unmapped venue has no coordinates).
      expectPage(await h.list({ geoloc: 'true', venue: V.nowhere }), [], 0);
      expectPage(await h.list({ geoloc: 'true', venue: V.kaunas }), [E.e2, E.e6], 2);
    });

    it('geoloc_lat + geoloc_lng with geoloc_radius in km (default 25)', async () => {
      const near = await h.list({ geoloc_lat: VILNIUS.lat, geoloc_lng: VILNIUS.lng, geoloc_radius: 10 });
      expectPage(near, [E.e1, E.e4, E.e7], 3);
      expectRestQuery(gw, near, [...base(), ['geoloc_lat', String(VILNIUS.lat)], ['geoloc_lng', String(VILNIUS.lng)], ['geoloc_radius', '10']]);
      expectPage(await h.list({ geoloc_lat: VILNIUS.lat, geoloc_lng: VILNIUS.lng, geoloc_radius: 150 }), [E.e1, E.e2, E.e4, E.e6, E.e7], 5);
      expectPage(await h.list({ geoloc_lat: KAUNAS.lat, geoloc_lng: KAUNAS.lng }), [E.e2, E.e6], 2);
      expectPage(await h.list({ geoloc_lat: 0, geoloc_lng: 0, geoloc_radius: 100 }), [], 0);
    });

    it('the radius survives pagination: next_rest_url gives the same page as page=2', async () => {
      const q = { geoloc_lat: VILNIUS.lat, geoloc_lng: VILNIUS.lng, geoloc_radius: 150, per_page: 2 };
      const first = await h.list(q);
      expectPage(first, [E.e1, E.e2], 5, 2);
      const second = await h.list({ ...q, page: 2 });
      expectPage(second, [E.e4, E.e6], 5, 2);
      const followed = await gw.api('GET', first.body.next_rest_url);
      expectPage(followed, [E.e4, E.e6], 5, 2);
    });

    it('only one of geoloc_lat / geoloc_lng, or out-of-range values, are 400', async () => {
      expectInvalidParams(await h.list({ geoloc_lat: VILNIUS.lat }), 'geoloc_lng');
      expectInvalidParams(await h.list({ geoloc_lng: VILNIUS.lng }), 'geoloc_lat');
      expectInvalidParams(await h.list({ geoloc_lat: 91, geoloc_lng: 0 }), 'geoloc_lat');
      expectInvalidParams(await h.list({ geoloc_lat: 'north', geoloc_lng: 0 }), 'geoloc_lat');
      expectInvalidParams(await h.list({ geoloc_lat: 0, geoloc_lng: 0, geoloc_radius: -1 }), 'geoloc_radius');
      expectInvalidParams(await h.list({ geoloc: 'maybe' }), 'geoloc');
    });
  });

  it('ticketed: 400 because Event Tickets is not active', async () => {
    for (const ticketed of ['true', '1']) {
      const res = await h.list({ ticketed });
      expectInvalidParams(res, 'ticketed');
      expect(res.body.data.params.ticketed).toBe('Event Tickets plugin is not activated.');
      expect(res.body.data.details.ticketed).toEqual({
        code: 'event-tickets-not-active',
        message: 'Event Tickets plugin is not activated.',
        data: { status: 400 },
      });
    }
    expectInvalidParams(await h.list({ ticketed: 'maybe' }), 'ticketed');
  });

  it('hide_from_listings: not listed and not counted by any list, but readable by id', async () => {
    expectPage(await h.list({ categories: 'music' }), [E.e1, E.e2, E.e5, E.e7], 4);
    expectPage(await h.list({ featured: 'true' }), [E.e1, E.e3, E.e6], 3);
    expectPage(await h.list({ venue: V.vilnius }), [E.e1, E.e4, E.e7], 3);
    expectPage(await h.list({ organizer: O.a }), [E.e1, E.e3], 2);
    expectPage(await h.list({ tags: 'free' }), [E.e1, E.e3, E.e7], 3);
    expectPage(await h.list({ start_date: day(13), end_date: day(13) }), [], 0);
    expectPage(await h.list({ start_date: day(13), end_date: day(13) }, { token: 'editor' }), [], 0);
    const one = await gw.api('GET', `/events/${E.hidden}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ id: E.hidden, hide_from_listings: true, featured: true });
  });

  describe('combinations', () => {
    it('category + venue', async () => {
      const res = await h.list({ categories: 'music', venue: V.vilnius });
      expectPage(res, [E.e1, E.e7], 2);
      expectRestQuery(gw, res, [...base(), ['venue', String(V.vilnius)], ['categories', 'music']]);
      expectPage(await h.list({ categories: 'music,sport', venue: `${V.vilnius},${V.kaunas}` }), [E.e1, E.e2, E.e4, E.e6, E.e7], 5);
      expectPage(await h.list({ categories: 'theatre', venue: V.kaunas }), [], 0);
    });

    it('category + organizer, tag + featured, venue + featured', async () => {
      expectPage(await h.list({ categories: 'music', organizer: O.a }), [E.e1], 1);
      expectPage(await h.list({ tags: 'free', featured: 'true' }), [E.e1, E.e3], 2);
      expectPage(await h.list({ venue: V.kaunas, featured: 'false' }), [E.e2], 1);
    });

    it('featured + a date window', async () => {
      const res = await h.list({ featured: 'true', start_date: day(6), end_date: day(10) });
      expectPage(res, [E.e3, E.e6], 2);
      expectRestQuery(gw, res, [
        ['page', '1'],
        ['per_page', '9'],
        ['start_date', `${day(6)} 00:00:00`],
        ['end_date', `${day(10)} 23:59:59`],
        ['status', 'publish'],
        ['featured', '1'],
      ]);
      expectPage(await h.list({ featured: 'false', start_date: day(6), end_date: day(9) }), [E.e2, E.e4, E.e5], 3);
    });

    it('category + a date window', async () => {
      expectPage(await h.list({ categories: 'music', start_date: day(6), end_date: day(10) }), [E.e2, E.e5], 2);
      expectPage(await h.list({ categories: 'music', start_date: '2020-01-01', end_date: day(5) }), [E.past, E.e1], 2);
    });

    it('tag + status for editors', async () => {
      expectPage(await h.list({ tags: 'free', status: 'draft' }, { token: 'editor' }), [E.draft], 1);
      const two = await h.list({ tags: 'free', status: 'publish,draft' }, { token: 'editor' });
      expectPage(two, [E.e1, E.e3, E.e7, E.draft], 4);
      expectRestQuery(gw, two, [...base(9, 'publish,draft'), ['tags', 'free']]);
      expectPage(await h.list({ categories: 'theatre' }, { token: 'editor' }), [E.e3, E.e5, E.pending], 3);
      // OR values across every status partition: each event once in the page and the total.
      expectPage(await h.list({ categories: 'music,theatre' }, { token: 'editor' }), [E.e1, E.e2, E.e3, E.e5, E.e7, E.draft, E.pending], 7);
    });
  });

  describe('pagination of a filtered list', () => {
    it('walks the pages of two categories with links that carry the filter, then 404', async () => {
      const q = { categories: 'music,theatre', per_page: 2 };
      const effective: [string, string][] = [['per_page', '2'], ...defaultWindow(), ['status', 'publish'], ['categories', 'music,theatre']];
      const p1 = await h.list(q);
      expectPage(p1, [E.e1, E.e2], 5, 2);
      expect(Object.keys(p1.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      expectRestQuery(gw, p1, [['page', '1'], ...effective]);
      expect(queryOf(p1.body.next_rest_url)).toEqual([...effective, ['page', '2']]);

      const p2 = await gw.api('GET', p1.body.next_rest_url);
      expectPage(p2, [E.e3, E.e5], 5, 2);
      expect(Object.keys(p2.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
      expectRestQuery(gw, p2, [['page', '2'], ...effective]);
      expect(queryOf(p2.body.previous_rest_url)).toEqual(effective);
      expect(queryOf(p2.body.next_rest_url)).toEqual([...effective, ['page', '3']]);

      const p3 = await gw.api('GET', p2.body.next_rest_url);
      expectPage(p3, [E.e7], 5, 2);
      expect(Object.keys(p3.body)).toEqual(['events', 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
      expect(queryOf(p3.body.previous_rest_url)).toEqual([...effective, ['page', '2']]);

      const p4 = await h.list({ ...q, page: 4 });
      expect(p4.status).toBe(404);
      expect(p4.body).toEqual(PAGE_NOT_FOUND);
    });

    it('page 2 of one category, and past the end', async () => {
      const p2 = await h.list({ categories: C.music, per_page: 3, page: 2 });
      expectPage(p2, [E.e7], 4, 3);
      expect(queryOf(p2.body.previous_rest_url)).toEqual([['per_page', '3'], ...defaultWindow(), ['status', 'publish'], ['categories', String(C.music)]]);
      const p3 = await h.list({ categories: C.music, per_page: 3, page: 3 });
      expect(p3.status).toBe(404);
      expect(p3.body).toEqual(PAGE_NOT_FOUND);
      // An empty filtered list: page 1 is 200, page 2 is 404.
      expectPage(await h.list({ categories: 'sport', tags: 'kids' }), [], 0);
      expect((await h.list({ categories: 'sport', tags: 'kids', page: 2 })).body).toEqual(PAGE_NOT_FOUND);
    });

    it('pages of a venue filter and of featured=false', async () => {
      const v2 = await h.list({ venue: `${V.vilnius},${V.kaunas}`, per_page: 2, page: 2 });
      expectPage(v2, [E.e4, E.e6], 5, 2);
      const f2 = await h.list({ featured: 'false', per_page: 3, page: 2 });
      expectPage(f2, [E.e7], 4, 3);
      expect((await h.list({ featured: 'false', per_page: 3, page: 3 })).status).toBe(404);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Totals stay exact after writes that move an event between lists
// ---------------------------------------------------------------------------------------------

describe('GET /events totals after updates', () => {
  const gw = useGateway();
  const h = helpers(gw);
  const A: number[] = [];
  let X = 0;
  let Y = 0;
  let V1 = 0;
  let V2 = 0;
  let T1 = 0;

  beforeAll(async () => {
    X = (await h.create('/categories', { name: 'Category X' })).id;
    Y = (await h.create('/categories', { name: 'Category Y' })).id;
    T1 = (await h.create('/tags', { name: 'Tag one' })).id;
    V1 = (await h.create('/venues', { venue: 'Venue one' })).id;
    V2 = (await h.create('/venues', { venue: 'Venue two' })).id;
    for (let i = 0; i < 4; i++) {
      A.push(await h.event(`Moving ${i}`, `${day(20 + i)} 10:00:00`, `${day(20 + i)} 12:00:00`, { categories: [X], tags: [T1], venue: V1 }));
    }
  }, 60_000);

  const check = async (query: ApiOptions['query'], ids: number[], o: Omit<ApiOptions, 'query'> = {}) => expectPage(await h.list(query, o), ids, ids.length);

  it('moves between categories, months, statuses, the trash and permanent deletion, with exact totals', async () => {
    const [a0, a1, a2, a3] = A as [number, number, number, number];
    await check({}, [a0, a1, a2, a3]);
    await check({ categories: X }, [a0, a1, a2, a3]);
    await check({ categories: Y }, []);

    // Another category.
    await h.update(a0, { categories: [Y] });
    await check({ categories: X }, [a1, a2, a3]);
    await check({ categories: Y }, [a0]);
    await check({ categories: `${X},${Y}` }, [a0, a1, a2, a3]);
    await check({ tags: T1 }, [a0, a1, a2, a3]);

    // Another venue.
    await h.update(a0, { venue: V2 });
    await check({ venue: V1 }, [a1, a2, a3]);
    await check({ venue: V2 }, [a0]);

    // Another month (and out of a window that covers the old start only).
    await h.update(a1, { start_date: `${day(80)} 10:00:00`, end_date: `${day(80)} 12:00:00` });
    await check({}, [a0, a2, a3, a1]);
    await check({ categories: X }, [a2, a3, a1]);
    await check({ categories: X, start_date: day(15), end_date: day(40) }, [a2, a3]);
    await check({ categories: X, start_date: day(75), end_date: day(85) }, [a1]);
    await check({ start_date: day(15), end_date: day(40) }, [a0, a2, a3]);
    await check({ tags: T1, start_date: day(75), end_date: day(85) }, [a1]);

    // A longer end: now past the end of an explicit window (and back).
    await check({ categories: X, start_date: day(15), end_date: day(25) }, [a2, a3]);
    await h.update(a3, { end_date: `${day(27)} 12:00:00` });
    await check({ categories: X, start_date: day(15), end_date: day(25) }, [a2]);
    await check({ start_date: day(15), end_date: day(25) }, [a0, a2]);
    await check({ categories: X, start_date: day(15), end_date: day(27) }, [a2, a3]);
    await h.update(a3, { end_date: `${day(23)} 12:00:00` });
    await check({ categories: X, start_date: day(15), end_date: day(25) }, [a2, a3]);

    // Featured on and off.
    await h.update(a2, { featured: true });
    await check({ featured: 'true' }, [a2]);
    await check({ featured: 'false' }, [a0, a3, a1]);
    await h.update(a2, { featured: false });
    await check({ featured: 'true' }, []);
    await check({ featured: 'false' }, [a0, a2, a3, a1]);

    // Hidden from listings and back.
    await h.update(a3, { hide_from_listings: true });
    await check({}, [a0, a2, a1]);
    await check({ categories: X }, [a2, a1]);
    await h.update(a3, { hide_from_listings: false });
    await check({ categories: X }, [a2, a3, a1]);

    // Unpublished: gone for anonymous callers, a draft for editors.
    await h.update(a2, { status: 'draft' });
    await check({ categories: X }, [a3, a1]);
    await check({}, [a0, a3, a1]);
    await check({ categories: X }, [a2, a3, a1], { token: 'editor' });
    await check({ categories: X, status: 'draft' }, [a2], { token: 'editor' });
    await check({ categories: X, status: 'publish' }, [a3, a1], { token: 'editor' });
    await check({ featured: 'false', status: 'draft' }, [a2], { token: 'editor' });

    // Trashed: out of every list, editors' too.
    const trashed = await gw.api('DELETE', `/events/${a3}`, { token: 'editor' });
    expect(trashed.status, trashed.text).toBe(200);
    expect(trashed.body.status).toBe('trash');
    await check({ categories: X }, [a1]);
    await check({}, [a0, a1]);
    await check({ categories: X }, [a2, a1], { token: 'editor' });
    await check({ tags: T1 }, [a0, a1]);
    await check({ venue: V1 }, [a1]);

    // Deleted permanently (a published one, and the trashed one: no double counting).
    expect((await gw.api('DELETE', `/events/${a1}`, { token: 'editor', query: { force: 'true' } })).status).toBe(200);
    expect((await gw.api('DELETE', `/events/${a3}`, { token: 'editor', query: { force: 'true' } })).status).toBe(200);
    await check({ categories: X }, []);
    await check({}, [a0]);
    await check({ categories: X }, [a2], { token: 'editor' });
    await check({}, [a0, a2], { token: 'editor' });
    await check({ tags: T1 }, [a0]);
    await check({ venue: V1 }, []);
    await check({ start_date: day(75), end_date: day(85) }, []);

    // Published again.
    await h.update(a2, { status: 'publish' });
    await check({ categories: X }, [a2]);
    await check({}, [a0, a2]);
    await check({ venue: V1 }, [a2]);
  });
});

describe('a filter expression of one term', () => {
  const gw = useGateway();
  it('lists by a category and one venue with no end condition on the window (DynamoDB refuses redundant parentheses)', async () => {
    const day = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
    const venue = await createAsEditor(gw, '/venues', { venue: 'One Term Hall' });
    const category = await createAsEditor(gw, '/categories', { name: 'One Term Category' });
    const event = await createAsEditor(gw, '/events', {
      title: 'One term',
      start_date: `${day} 10:00:00`,
      end_date: `${day} 11:00:00`,
      venue: venue.id,
      categories: [category.id],
    });
    const res = await gw.api('GET', '/events', { query: { starts_after: '2000-01-01', categories: category.id, venue: venue.id } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([event.id]);
  });
});
