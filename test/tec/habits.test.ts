// WordPress's request habits, this API beside the live TEC: the method override, `_fields`,
// `_envelope`, the discovery headers, the order of an event's terms, slugs of hostile titles and
// an editor's title of control characters. Records are made on both sites with a unique marker.
// Each record's own `lang` key (this API's) is left out of the comparison.
import { beforeAll, describe, expect, it } from 'vitest';
import { createAsEditor } from '../support/expect.js';
import { useGateway } from '../support/gateway.js';
import { liveTec, TEC } from '../support/live-tec.js';

type Json = Record<string, any>;
const run = `habits${Date.now().toString(36)}`;
const DAY = { start_date: '2031-04-01 10:00:00', end_date: '2031-04-01 11:00:00' };

describe("WordPress's request habits against the live TEC", () => {
  const gw = useGateway({ tablePrefix: 'tec-habits' });
  let auth = '';

  /** One request to the live site's REST API: status, body (JSON or text) and headers. */
  const tec = async (method: string, path: string, opts: { body?: object; query?: Record<string, string>; headers?: Record<string, string>; anonymous?: boolean } = {}) => {
    const query = opts.query ? `?${new URLSearchParams(opts.query)}` : '';
    const res = await fetch(`${TEC}/wp-json${path}${query}`, {
      method,
      headers: { ...(opts.anonymous ? {} : { authorization: auth }), ...(opts.body ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      body: opts.body ? JSON.stringify(opts.body) : undefined,
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, body, text, headers: res.headers };
  };
  const both = async (body: Json): Promise<[Json, Json]> => {
    const theirs = await tec('POST', '/tribe/events/v1/events', { body });
    if (theirs.status !== 201) throw new Error(`The live TEC refused the event: ${theirs.status} ${theirs.text}`);
    return [theirs.body, await createAsEditor(gw, '/events', body)];
  };

  beforeAll(async () => {
    auth = (await liveTec()).auth;
  });

  it('POST with ?_method=DELETE or X-HTTP-Method-Override trashes the event on both', async () => {
    for (const how of [{ query: { _method: 'DELETE' } }, { headers: { 'X-HTTP-Method-Override': 'DELETE' } }]) {
      const [theirs, mine] = await both({ title: `${run} override`, ...DAY });
      const a = await tec('POST', `/tribe/events/v1/events/${theirs.id}`, how);
      const b = await gw.api('POST', `/events/${mine.id}`, { token: 'editor', ...how });
      expect([a.status, a.body.status]).toEqual([200, 'trash']);
      expect([b.status, b.body.status]).toEqual([a.status, a.body.status]);
    }
  });

  it('_fields shapes the same answer the same way', async () => {
    const body = { title: `${run} fields`, ...DAY, venue: { venue: `${run} Fields Hall` }, categories: [`${run} One`] };
    const [theirs, mine] = await both(body);
    for (const fields of ['venue.venue,categories.name,nope', 'nope', 'slug,venue,venue.venue,title', 'start_date_details.year,cost_details.values']) {
      const a = await tec('GET', `/tribe/events/v1/events/${theirs.id}`, { query: { _fields: fields } });
      const b = await gw.api('GET', `/events/${mine.id}`, { query: { _fields: fields } });
      const withoutVenueDetails = (x: any) =>
        x && typeof x === 'object' && !Array.isArray(x) && typeof x.venue === 'object' && !Array.isArray(x.venue) && Object.keys(x.venue).length > 1
          ? { ...x, venue: Object.keys(x.venue).filter((k) => k !== 'lang') }
          : x;
      expect(withoutVenueDetails(b.body), fields).toEqual(withoutVenueDetails(a.body));
    }
  });

  it('_envelope wraps a read, a list and an error alike', async () => {
    const [theirs, mine] = await both({ title: `${run} envelope`, ...DAY });
    // Anonymously: WordPress's Allow lists the methods the caller may use, which this API does not work out.
    const a = await tec('GET', `/tribe/events/v1/events/${theirs.id}`, { query: { _envelope: '1', _fields: 'title' }, anonymous: true });
    const b = await gw.api('GET', `/events/${mine.id}`, { query: { _envelope: '1', _fields: 'title' } });
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    const listA = await tec('GET', '/tribe/events/v1/events', { query: { _envelope: '', _fields: 'total', per_page: '1' }, anonymous: true });
    const listB = await gw.api('GET', '/events', { query: { _envelope: '', _fields: 'total', per_page: '1' } });
    expect(Object.keys(listB.body)).toEqual(Object.keys(listA.body));
    expect(Object.keys(listB.body.headers)).toEqual(Object.keys(listA.body.headers));
    expect(typeof listB.body.headers['X-TEC-Total']).toBe(typeof listA.body.headers['X-TEC-Total']);
    const missingA = await tec('GET', '/tribe/events/v1/events/987654321', { query: { _envelope: '1' }, anonymous: true });
    const missingB = await gw.api('GET', '/events/987654321', { query: { _envelope: '1' } });
    expect([missingB.status, missingB.body]).toEqual([missingA.status, missingA.body]);
  });

  it('the site root and REST answers carry the same discovery headers', async () => {
    const home = await fetch(`${TEC}/`, { method: 'HEAD' });
    const mine = await gw.api('HEAD', gw.abs('/'));
    for (const name of ['link', 'x-tec-api-version', 'x-tec-api-root', 'x-tec-api-origin']) {
      expect(mine.headers.get(name), name).toBe(home.headers.get(name)?.replaceAll(TEC, gw.origin));
    }
    const a = await tec('GET', '/tribe/events/v1/events/987654321');
    const b = await gw.api('GET', gw.abs('/wp-json/tribe/events/v1/events/987654321'));
    expect(b.headers.get('link')).toBe(a.headers.get('link')?.replaceAll(TEC, gw.origin));
    expect(b.headers.get('x-robots-tag')).toBe(a.headers.get('x-robots-tag'));
  });

  it("lists an event's terms in the same order", async () => {
    const names = ['zeta', 'Alpha', 'éclair', 'Beta', 'alpha2', '10 ten', '9 nine', 'Ecl', '_under', 'a b'].map((n) => `${n} ${run}`);
    const [theirs, mine] = await both({ title: `${run} terms`, ...DAY, categories: names, tags: [`b ${run}`, `A ${run}`, `a2 ${run}`] });
    const order = (e: Json, key: string) => e[key].map((t: Json) => t.name);
    expect(order(mine, 'categories')).toEqual(order(theirs, 'categories'));
    expect(order(mine, 'tags')).toEqual(order(theirs, 'tags'));
  });

  it("embeds an event's terms on the wp/v2 route as WordPress does", async () => {
    const [theirs, mine] = await both({ title: `${run} embed`, ...DAY, categories: [`Zulu ${run}`, `alpha ${run}`], tags: [`beta ${run}`] });
    const a = await tec('GET', `/wp/v2/tribe_events/${theirs.id}`, { query: { _embed: '1' }, anonymous: true });
    const b = await gw.api('GET', gw.abs(`/wp-json/wp/v2/tribe_events/${mine.id}`), { query: { _embed: '1' } });
    const terms = (body: Json) => body._embedded['wp:term'].map((list: Json[]) => list.map((t) => [Object.keys(t), t.name, t.taxonomy]));
    expect(terms(b.body)).toEqual(terms(a.body));
    expect(Object.keys(b.body._embedded)).toEqual(Object.keys(a.body._embedded));
    const filtered = await tec('GET', `/wp/v2/tribe_events/${theirs.id}`, { query: { _embed: '1', _fields: 'id' }, anonymous: true });
    expect(Object.keys(filtered.body)).toEqual(['id']);
  });

  it('makes the same slugs of hostile titles', async () => {
    const titles = [
      'c\\s',
      'a\\\\b',
      'it\'s "quoted"',
      '100% sure',
      'caf&eacute; &amp; bar',
      'ctl\u0007bell',
      'tab\there',
      'dash\u2014em\u2013en',
      'a+b=c',
      '<b>bold</b>',
      '#hash?q',
      'a_b/c.d',
      'x\u00d7y',
      '\u00a9 2027',
      '1.5',
      'C++ & C#',
    ];
    for (const title of titles) {
      const [theirs, mine] = await both({ title: `${run} ${title}`, ...DAY });
      expect(mine.slug, JSON.stringify(title)).toBe(theirs.slug);
    }
  });

  it("keeps an editor's title of control characters", async () => {
    const [theirs, mine] = await both({ title: '\u0007', ...DAY });
    expect(mine.title).toBe(theirs.title);
    expect([mine.slug, theirs.slug]).toEqual([String(mine.id), String(theirs.id)]);
  });
});
