// TEC's `tec/v1` namespace of the live TEC and of this API, route by route, for the same records:
// the acknowledgement gate, reads by id (every key, in order), lists with filters and their
// headers, creates, updates and deletes, and the errors. Ids, the site's origin, dates of creation
// and modification and the author's id differ between the two sites by nature, and are mapped or
// left out.
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { createAsEditor } from '../support/expect.js';
import { useGateway } from '../support/gateway.js';
import { liveTec, postToTec, TEC } from '../support/live-tec.js';

type Json = Record<string, any>;
const run = Date.now().toString(36);
const ACK =
  'I understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. I also understand that I am using this endpoint at my own risk, while support is not provided for it.';

const VENUE = { venue: `Tv Hall ${run}`, address: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zip: '62701', phone: '555-1234', website: 'https://hall.example' };
const ORGANIZER = { organizer: `Tv Org ${run}`, email: 'org@example.com', phone: '555-9', website: 'https://org.example' };
const EVENT = {
  title: `Tv Concert ${run}`,
  description: '<p>Hello <b>world</b></p>',
  excerpt: 'Short',
  start_date: '2027-06-01 19:00:00',
  end_date: '2027-06-01 21:00:00',
  cost: '15',
  timezone: 'Europe/Paris',
  featured: true,
  tags: [`tvtag-${run}`],
  categories: [`tvcat-${run}`],
};
const PAST = { title: `Tv Past ${run}`, start_date: '2021-03-01 10:00:00', end_date: '2021-03-02 12:00:00', timezone: 'Europe/Paris' };
const ALL_DAY = { title: `Tv All Day ${run}`, start_date: '2027-06-03 00:00:00', end_date: '2027-06-03 23:59:59', all_day: true, timezone: 'Europe/Paris' };

type Side = { base: string; auth: string; ids: Record<string, number> };
type Answer = { status: number; headers: Headers; body: any };

describe('tec/v1 against the live TEC', () => {
  const gw = useGateway({ tablePrefix: 'tec-tecv1' });
  let live: Side;
  let ours: Side;

  const call = async (side: Side, method: string, route: string, o: { auth?: boolean; ack?: string | false; body?: object } = {}): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (o.auth) headers.authorization = side.auth;
    if (o.ack !== false) headers['x-tec-eea'] = o.ack ?? ACK;
    if (o.body) headers['content-type'] = 'application/json';
    const res = await fetch(`${side.base}/wp-json/tec/v1${route}`, { method, headers, body: o.body ? JSON.stringify(o.body) : undefined });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const both = (method: string, route: (s: Side) => string, o: Parameters<typeof call>[3] = {}) => Promise.all([live, ours].map((side) => call(side, method, route(side), o)));

  /** The answer with the site's origin and the side's ids named, and what differs by nature left out. */
  const normal = (side: Side, value: unknown): unknown => {
    // Posts and terms count apart: a term's id may be a post's.
    const TERMS = ['tag', 'category'];
    const of = (terms: boolean) =>
      new Map(
        Object.entries(side.ids)
          .filter(([name]) => TERMS.includes(name) === terms)
          .map(([name, id]) => [id, `<${name}>`]),
      );
    const names = of(false);
    const terms = of(true);
    const idOf = (n: unknown, map = names) => (typeof n === 'number' ? (map.get(n) ?? n) : n);
    const walk = (v: unknown, key = ''): unknown => {
      if (typeof v === 'string') {
        return v.replaceAll(side.base, 'SITE').replace(/(\/|post-|(?:venue|organizer|event)(?:%5B\d+%5D)?=)(\d+)(?=$|[/?&])/g, (m, before: string, id: string) => {
          const name = names.get(Number(id));
          return name ? `${before}${name}` : m;
        });
      }
      if (Array.isArray(v)) return key === 'tags' || key === 'tribe_events_cat' ? v.map((n) => idOf(n, terms)) : v.map((x) => walk(x));
      if (v && typeof v === 'object') {
        const out: Json = {};
        for (const [k, x] of Object.entries(v)) {
          if (['date', 'date_gmt', 'modified', 'modified_gmt', 'author'].includes(k) && key !== 'dates') continue;
          out[k] = k === 'id' ? idOf(x) : walk(x, k);
        }
        return out;
      }
      return v;
    };
    return walk(value);
  };

  const expectAlike = (a: Answer, b: Answer, where: string) => {
    expect(b.status, `${where}: ${JSON.stringify(b.body)}`).toBe(a.status);
    const x = normal(live, a.body) as Json;
    const y = normal(ours, b.body) as Json;
    if (x && typeof x === 'object' && !Array.isArray(x)) expect(Object.keys(y), where).toEqual(Object.keys(x));
    expect(y, where).toEqual(x);
  };

  beforeAll(async () => {
    const site = await liveTec();
    const post = (path: string, body: object) => postToTec<Json>(site.auth, path, body);
    const tv = await post('/tribe/events/v1/venues', VENUE);
    const to = await post('/tribe/events/v1/organizers', ORGANIZER);
    const te = await post('/tribe/events/v1/events', { ...EVENT, venue: tv.id, organizer: [to.id] });
    const tp = await post('/tribe/events/v1/events', { ...PAST, venue: tv.id });
    const ta = await post('/tribe/events/v1/events', { ...ALL_DAY, organizer: [to.id] });
    live = {
      base: TEC,
      auth: site.auth,
      ids: { event: te.id, past: tp.id, allDay: ta.id, venue: tv.id, organizer: to.id, tag: te.tags[0].id, category: te.categories[0].id },
    };

    const ov = await createAsEditor(gw, '/venues', VENUE);
    const oo = await createAsEditor(gw, '/organizers', ORGANIZER);
    const oe = await createAsEditor(gw, '/events', { ...EVENT, venue: ov.id, organizer: [oo.id] });
    const op = await createAsEditor(gw, '/events', { ...PAST, venue: ov.id });
    const oa = await createAsEditor(gw, '/events', { ...ALL_DAY, organizer: [oo.id] });
    ours = {
      base: config().siteUrl,
      auth: `Bearer ${await gw.token('editor')}`,
      ids: { event: oe.id, past: op.id, allDay: oa.id, venue: ov.id, organizer: oo.id, tag: oe.tags[0].id, category: oe.categories[0].id },
    };
  });

  it('gates every record route, read or write, after the permission check; not the index nor the document', async () => {
    const cases: [string, (s: Side) => string, { auth?: boolean; ack?: string | false; body?: object }][] = [
      ['GET', () => '/events', { ack: false }],
      ['GET', () => '/venues', { ack: 'I understand' }],
      ['GET', () => '/organizers', { ack: '0' }],
      ['GET', (s) => `/events/${s.ids.event}`, { ack: false }],
      // A record the caller may not read is refused before the gate.
      ['GET', () => '/events/999999', { ack: false }],
      ['GET', () => '/events/999999', { ack: false, auth: true }],
      ['POST', () => '/events', { ack: false, body: { title: 'x' } }],
      ['POST', () => '/venues', { ack: false, auth: true, body: { title: `Gate ${run}` } }],
      ['PUT', (s) => `/venues/${s.ids.venue}`, { ack: 'nope', auth: true, body: { phone: '1' } }],
      ['DELETE', (s) => `/organizers/${s.ids.organizer}`, { ack: false, auth: true }],
      ['DELETE', () => '/organizers/999999', { ack: false, auth: true }],
    ];
    for (const [method, route, o] of cases) {
      const [a, b] = await both(method, route, o);
      expect(b.status, `${method} ${route(ours)}`).toBe(a.status);
      expect(b.body, `${method} ${route(ours)}`).toEqual(a.body);
    }
    // The acknowledgement is read without case and outer spaces.
    const [a, b] = await both('GET', (s) => `/venues/${s.ids.venue}`, { ack: `  ${ACK.toUpperCase()} ` });
    expect([a.status, b.status]).toEqual([200, 200]);
    for (const route of ['', '/docs']) {
      const [x, y] = await both('GET', () => route, { ack: false });
      expect([x.status, y.status], route).toEqual([200, 200]);
    }
  });

  for (const name of ['event', 'past', 'allDay', 'venue', 'organizer'] as const) {
    it(`reads the ${name} alike, key by key`, async () => {
      const route = (s: Side) => `/${name === 'venue' ? 'venues' : name === 'organizer' ? 'organizers' : 'events'}/${s.ids[name]}`;
      const [a, b] = await both('GET', route);
      expect(a.status).toBe(200);
      expectAlike(a, b, route(ours));
    });
  }

  it('lists alike: the same records in the same order, the same totals, pages and links', async () => {
    const queries = [
      (s: Side) => `/events?venue=${s.ids.venue}`,
      (s: Side) => `/events?organizer=${s.ids.organizer}`,
      (s: Side) => `/events?venue=${s.ids.venue}&featured=1`,
      (s: Side) => `/events?venue[]=${s.ids.venue}&organizer[]=${s.ids.organizer}`,
      (s: Side) => `/events?organizer=${s.ids.organizer}&per_page=1`,
      (s: Side) => `/events?organizer=${s.ids.organizer}&per_page=1&page=2`,
      (s: Side) => `/events?venue=${s.ids.venue}&starts_after=2025-01-01 00:00:00`,
      (s: Side) => `/events?venue=${s.ids.venue}&ends_before=2025-01-01 00:00:00`,
      // TEC's orders: by start descending, by title (its collation). (By publish date, by modification
      // time and by menu_order are not compared: the first two depend on when each side's writes fall
      // within a second, and menu_order is 0 for every event, so that order is MySQL's order of ties,
      // which changed as the live site grew; dry runs failed on each. test/unit/event-order.test.ts
      // holds those orders.)
      (s: Side) => `/events?venue=${s.ids.venue}&order=DESC`,
      (s: Side) => `/events?venue=${s.ids.venue}&orderby=title`,
      (s: Side) => `/events?organizer=${s.ids.organizer}&orderby=title&order=DESC`,
      (s: Side) => `/events?organizer=${s.ids.organizer}&orderby=title&per_page=1&page=2`,
      (s: Side) => `/venues?event=${s.ids.event}`,
      (s: Side) => `/organizers?event=${s.ids.allDay}`,
    ];
    for (const query of queries) {
      const [a, b] = await both('GET', query);
      const where = query(ours);
      expect(a.status, query(live)).toBe(200);
      expectAlike(a, b, where);
      expect(b.headers.get('x-wp-total'), where).toBe(a.headers.get('x-wp-total'));
      expect(b.headers.get('x-wp-totalpages'), where).toBe(a.headers.get('x-wp-totalpages'));
      const links = (s: Side, h: Headers) =>
        normal(
          s,
          (h.get('link') ?? '').split(', ').filter((l) => /rel="(?:next|prev)"/.test(l)),
        );
      expect(links(ours, b.headers), where).toEqual(links(live, a.headers));
    }
    // A page past the last.
    const [a, b] = await both('GET', (s) => `/events?venue=${s.ids.venue}&page=9`);
    expect([b.status, b.body]).toEqual([a.status, a.body]);
  });

  it('creates, updates and deletes alike, and the v1 routes read what tec/v1 wrote', async () => {
    const venue = { title: `Tv New Hall ${run}`, address: '2 Side St', city: 'Shelbyville', country: 'US', zip: '62565', website: 'https://new.example' };
    const [va, vb] = await both('POST', () => '/venues', { auth: true, body: venue });
    expect(va.status).toBe(201);
    live.ids.newVenue = va.body.id;
    ours.ids.newVenue = vb.body.id;
    expectAlike(va, vb, 'POST /venues');
    const organizer = { title: `Tv New Org ${run}`, email: 'new@example.com', phone: '555-0' };
    const [oa, ob] = await both('POST', () => '/organizers', { auth: true, body: organizer });
    live.ids.newOrganizer = oa.body.id;
    ours.ids.newOrganizer = ob.body.id;
    expectAlike(oa, ob, 'POST /organizers');
    const event = (s: Side) => ({
      title: `Tv New Event ${run}`,
      content: 'Made through tec/v1',
      start_date: '2027-07-01 09:00:00',
      end_date: '2027-07-02 17:00:00',
      timezone: 'Europe/Paris',
      cost: '5',
      venues: [s.ids.newVenue],
      organizers: [s.ids.newOrganizer],
      tags: [s.ids.tag],
      tribe_events_cat: [s.ids.category],
    });
    const [ea, eb] = await Promise.all([live, ours].map((s) => call(s, 'POST', '/events', { auth: true, body: event(s) })));
    expect(ea!.status, JSON.stringify(ea!.body)).toBe(201);
    live.ids.newEvent = ea!.body.id;
    ours.ids.newEvent = eb!.body.id;
    expectAlike(ea!, eb!, 'POST /events');

    // Updates: PUT and PATCH.
    const [ua, ub] = await both('PUT', (s) => `/events/${s.ids.newEvent}`, { auth: true, body: { title: `Tv Renamed ${run}`, cost: '7', featured: true } });
    expectAlike(ua, ub, 'PUT /events/{id}');
    const [pa, pb] = await both('PATCH', (s) => `/venues/${s.ids.newVenue}`, { auth: true, body: { phone: '555-4321', city: 'Capital City' } });
    expectAlike(pa, pb, 'PATCH /venues/{id}');
    // The record written here reads alike through v1 on both sites.
    const v1 = await Promise.all([live, ours].map((s) => fetch(`${s.base}/wp-json/tribe/events/v1/events/${s.ids.newEvent}`).then((r) => r.json() as Promise<Json>)));
    expect(v1.map((e) => [e.title, e.cost, e.featured, e.venue.venue])).toEqual([
      [`Tv Renamed ${run}`, v1[0]!.cost, true, `Tv New Hall ${run}`],
      [`Tv Renamed ${run}`, v1[0]!.cost, true, `Tv New Hall ${run}`],
    ]);
    // A record of another kind.
    const [ka, kb] = await both('PUT', (s) => `/events/${s.ids.newVenue}`, { auth: true, body: { title: 'x' } });
    expect([kb.status, kb.body]).toEqual([ka.status, ka.body]);

    // Deletes: to the trash, again, then for good.
    for (const [route, force] of [
      [(s: Side) => `/events/${s.ids.newEvent}`, false],
      [(s: Side) => `/events/${s.ids.newEvent}`, false],
      [(s: Side) => `/events/${s.ids.newEvent}?force=true`, true],
      [(s: Side) => `/organizers/${s.ids.newOrganizer}`, false],
      [(s: Side) => `/venues/${s.ids.newEvent}`, false],
    ] as const) {
      const [da, db] = await both('DELETE', route, { auth: true });
      expect([db.status, db.body], `${route(ours)} ${force}`).toEqual([da.status, da.body]);
    }
  });

  it('answers the same errors', async () => {
    const cases: [string, (s: Side) => string, { auth?: boolean; body?: object }][] = [
      ['GET', (s) => `/venues/${s.ids.event}`, {}],
      ['GET', (s) => `/organizers/${s.ids.venue}`, { auth: true }],
      ['GET', () => '/events?orderby=foo', {}],
      ['GET', () => '/events?order=up', {}],
      ['POST', () => '/events', { body: { title: 'anonymous' } }],
      ['PUT', () => '/events/999999', { auth: true, body: { title: 'x' } }],
      ['POST', (s) => `/events/${s.ids.event}`, { auth: true, body: { title: 'x' } }],
    ];
    for (const [method, route, o] of cases) {
      const [a, b] = await both(method, route, o);
      expect(b.status, `${method} ${route(ours)}`).toBe(a.status);
      expect(b.body, `${method} ${route(ours)}`).toEqual(a.body);
    }
    // Refused arguments, in TEC's words: a typed argument's own (with details), else "Invalid parameter.".
    for (const route of [
      '/events?per_page=0',
      '/events?page=0',
      '/venues?page=x',
      '/venues?event=abc',
      '/events?post_parent=-1&start_date=bad',
      '/venues?status=bogus',
      '/events?venue=abc',
      '/events?status[]=publish&status[]=trash',
    ]) {
      const [a, b] = await both('GET', () => route);
      expect(a.status, route).toBe(400);
      expect([b.status, b.body], route).toEqual([a.status, a.body]);
    }
    // Refused values of a write, in TEC's words where it has them (a date's pattern, a list's item, a URL, an e-mail).
    const when = { title: 'x', start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00' };
    const writes: [string, object][] = [
      ['/events', { ...when, start_date: 'bad' }],
      ['/events', { ...when, start_date: '2027-01-01' }],
      ['/events', { ...when, date: 'bad', date_gmt: '2027-01-01 10:00' }],
      ['/events', { ...when, venues: ['abc'], organizers: [0] }],
      ['/events', { ...when, tags: ['abc'], tribe_events_cat: 'x' }],
      ['/events', { ...when, author: 'x', status: 'bogus', cost: ['a'] }],
      ['/venues', { title: 'v', website: 'not a url', phone: 5 }],
      ['/organizers', { title: 'o', email: 'nope' }],
    ];
    for (const [route, body] of writes) {
      const [a, b] = await both('POST', () => route, { auth: true, body });
      expect(a.status, JSON.stringify(body)).toBe(400);
      expect([b.status, b.body], JSON.stringify(body)).toEqual([a.status, a.body]);
    }
    // TEC declares a per_page of at most 100 and serves more: so does this API (up to its own MAX_PER_PAGE).
    const [a, b] = await both('GET', (s) => `/events?venue=${s.ids.venue}&per_page=101`);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get('x-wp-total')).toBe(a.headers.get('x-wp-total'));
  });

  it('lists the same routes with the same methods in its index', async () => {
    const [a, b] = await both('GET', () => '', { ack: false });
    expect(Object.keys(b.body.routes)).toEqual(Object.keys(a.body.routes));
    for (const [route, item] of Object.entries<Json>(a.body.routes)) {
      const mine = b.body.routes[route];
      expect(
        mine.endpoints.map((e: Json) => e.methods),
        route,
      ).toEqual(item.endpoints.map((e: Json) => e.methods));
      // The arguments this API reads are TEC's, less WordPress's post fields that no record here keeps (comment_status, format…).
      for (const [i, endpoint] of mine.endpoints.entries()) {
        const theirs = Array.isArray(item.endpoints[i].args) ? [] : Object.keys(item.endpoints[i].args);
        expect(
          Object.keys(endpoint.args).filter((k) => k !== 'ml_language' && !theirs.includes(k)),
          route,
        ).toEqual([]);
      }
    }
  });

  it('documents the same paths, methods and operation ids in its OpenAPI document, with its own server', async () => {
    const [a, b] = await both('GET', () => '/docs', { ack: false });
    expect(b.body.openapi).toBe(a.body.openapi);
    expect(b.body.servers).toEqual([{ url: `${ours.base}/wp-json/tec/v1` }]);
    const ops = (d: Json) => Object.entries<Json>(d.paths).flatMap(([p, item]) => Object.entries<Json>(item).map(([m, o]) => `${m} ${p} ${o.operationId}`));
    expect(ops(b.body)).toEqual(ops(a.body));
  });
});
