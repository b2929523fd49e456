// WordPress's request habits that its clients rely on, through the local gateway: the method
// override (`?_method=` and `X-HTTP-Method-Override`), run by the POST route's function with the
// overriding operation's arguments, permissions and grants; `_fields`, `_envelope` and `_embed`;
// and the discovery headers of REST answers and of the site root.
import { describe, expect, it } from 'vitest';
import { OPERATIONS, operation } from '#lib/contract/operations.js';
import { useGateway } from '../support/gateway.js';
import { createAsEditor, NO_ROUTE } from '../support/expect.js';

const gw = useGateway({ tablePrefix: 'habits' });
const DAY = { start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00' };
const newEvent = (title: string, extra: Record<string, unknown> = {}) => createAsEditor(gw, '/events', { title, ...DAY, ...extra });

describe('method override', () => {
  it('POST with ?_method=DELETE trashes the event, as DELETE does', async () => {
    const ev = await newEvent('override by query');
    const res = await gw.api('POST', `/events/${ev.id}`, { token: 'editor', query: { _method: 'DELETE' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('trash');
    expect(res.headers.get('allow')).toBe('DELETE');
    const again = await gw.api('DELETE', `/events/${ev.id}`, { token: 'editor' });
    expect(again.status).toBe(410);
  });

  it('POST with X-HTTP-Method-Override: delete (any case) trashes it too; a body does not turn it into an update', async () => {
    const ev = await newEvent('override by header');
    const res = await gw.api('POST', `/events/${ev.id}`, { token: 'editor', headers: { 'x-http-method-override': 'delete' }, body: { title: 'renamed' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('trash');
    expect(res.body.title).toBe('override by header');
  });

  it('_method wins over the header, as in WordPress', async () => {
    const ev = await newEvent('both given');
    const res = await gw.api('POST', `/events/${ev.id}`, {
      token: 'editor',
      query: { _method: 'PATCH' },
      headers: { 'x-http-method-override': 'DELETE' },
      body: { title: 'patched' },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('publish');
    expect(res.body.title).toBe('patched');
  });

  it("runs the overriding operation's arguments and permissions: force, by slug, terms, anonymous", async () => {
    const ev = await newEvent('forced');
    const forced = await gw.api('POST', `/events/${ev.id}`, { token: 'editor', query: { _method: 'DELETE', force: 'true' } });
    expect(forced.status).toBe(200);
    expect((await gw.api('GET', `/events/${ev.id}`, { token: 'editor' })).status).toBe(404);

    const bySlug = await newEvent('by slug override');
    const trashed = await gw.api('POST', `/events/by-slug/${bySlug.slug}`, { token: 'editor', query: { _method: 'DELETE' } });
    expect([trashed.status, trashed.body.status]).toEqual([200, 'trash']);

    const tag = await createAsEditor(gw, '/tags', { name: 'override tag' });
    const gone = await gw.api('POST', `/tags/${tag.id}`, { token: 'editor', query: { _method: 'DELETE' } });
    expect(gone.status).toBe(200);
    const after = await gw.api('GET', `/tags/${tag.id}`);
    expect(after.status).toBe(400);

    const kept = await newEvent('anonymous override');
    const anonymous = await gw.api('POST', `/events/${kept.id}`, { query: { _method: 'DELETE' } });
    expect(anonymous.status).toBe(401);
    const author = await gw.api('POST', `/events/${kept.id}`, { token: 'contributor', query: { _method: 'DELETE' } });
    expect(author.status).toBe(403);
    expect((await gw.api('GET', `/events/${kept.id}`)).body.status).toBe('publish');
  });

  it("POST with _method=GET reads, with the read's arguments; a HEAD override answers without a body", async () => {
    const ev = await newEvent('read by post');
    const res = await gw.api('POST', `/events/${ev.id}`, { query: { _method: 'GET' } });
    expect([res.status, res.body.id]).toEqual([200, ev.id]);
    const list = await gw.api('POST', '/events', { query: { _method: 'GET', per_page: 1, start_date: '2031-01-01' } });
    expect(list.status).toBe(200);
    expect(list.body.rest_url).toContain('per_page=1');
    const head = await gw.api('POST', `/events/${ev.id}`, { headers: { 'x-http-method-override': 'HEAD' } });
    expect([head.status, head.text]).toEqual([200, '']);
  });

  it('a method the path has no operation for is rest_no_route, as WordPress answers it', async () => {
    const res = await gw.api('POST', '/events', { token: 'editor', query: { _method: 'DELETE' } });
    expect([res.status, res.body]).toEqual([404, NO_ROUTE]);
    const odd = await gw.api('POST', '/events/1', { token: 'editor', query: { _method: 'FROB' } });
    expect(odd.body).toEqual(NO_ROUTE);
  });

  it("a GET (or DELETE) route's function refuses an override naming another operation, and nothing changes", async () => {
    const ev = await newEvent('not by get');
    const res = await gw.api('GET', `/events/${ev.id}`, { token: 'editor', query: { _method: 'DELETE' } });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe('rest_method_override_refused');
    expect(res.body.data).toEqual({ status: 405 });
    expect(res.body.message).toContain('POST with _method=DELETE');
    const header = await gw.api('GET', `/events/${ev.id}`, { token: 'editor', headers: { 'x-http-method-override': 'POST' }, query: { title: 'changed' } });
    expect(header.status).toBe(405);
    const byDelete = await gw.api('DELETE', `/events/${ev.id}`, { token: 'editor', query: { _method: 'PATCH' }, body: { title: 'changed' } });
    expect(byDelete.status).toBe(405);
    const now = await gw.api('GET', `/events/${ev.id}`);
    expect([now.body.status, now.body.title]).toEqual(['publish', 'not by get']);
    // The same method named again is no override.
    expect((await gw.api('GET', `/events/${ev.id}`, { query: { _method: 'get' } })).status).toBe(200);
  });

  it('the operation table says which siblings each function serves, and its grants hold theirs', () => {
    for (const op of OPERATIONS) {
      if (!op.methods.includes('POST')) expect(op.overrides, op.id).toEqual([]);
      for (const id of op.overrides) {
        const sibling = operation(id);
        expect([sibling.api, sibling.path], `${op.id} serves ${id}`).toEqual([op.api, op.path]);
        for (const action of sibling.tableActions) expect(op.tableActions, `${op.id} serves ${id}`).toContain(action);
      }
    }
    expect(operation('events.update').overrides).toEqual(['events.get', 'events.delete']);
    expect(operation('events.get').tableActions).not.toContain('DeleteItem');
  });
});

describe('_fields, _envelope and _embed', () => {
  it("_fields keeps the keys named, dotted paths reach into objects, in the answer's own order", async () => {
    const ev = await newEvent('fields', { venue: { venue: 'Fields Hall', city: 'Vilnius' }, categories: ['One'] });
    const res = await gw.api('GET', `/events/${ev.id}`, { query: { _fields: 'venue.venue,id,categories.name,nope' } });
    expect(res.text).toBe(`{"id":${ev.id},"categories":[],"venue":{"venue":"Fields Hall"}}`);
    // A list's items are filtered as a list: `events.id` finds no `id` key in the list itself.
    const list = await gw.api('GET', '/events', { query: { _fields: 'events.id,total', start_date: '2031-01-01' } });
    expect(Object.keys(list.body)).toEqual(['events', 'total']);
    expect(list.body.events).toEqual([]);
    expect((await gw.api('GET', `/events/${ev.id}`, { query: { _fields: 'nope' } })).text).toBe('[]');
    expect((await gw.api('GET', `/events/${ev.id}`, { query: { _fields: '' } })).body.id).toBe(ev.id);
    expect((await gw.api('GET', `/events/${ev.id}`, { query: { _fields: ['id', 'slug'] } })).body).toEqual({ id: ev.id, slug: ev.slug });
    // `a`, then `a.b`: the list ends there (WordPress's `break 2`).
    const whole = (await gw.api('GET', `/events/${ev.id}`)).body;
    expect((await gw.api('GET', `/events/${ev.id}`, { query: { _fields: 'slug,venue,venue.venue,id' } })).body).toEqual({ slug: whole.slug, venue: whole.venue });
    // A JSON list answer (WordPress's routes) is filtered item by item.
    await createAsEditor(gw, '/tags', { name: 'fields tag' });
    const tags = await gw.api('GET', gw.abs('/wp-json/wp/v2/tags'), { query: { _fields: 'id,name', per_page: 1 } });
    expect(Object.keys(tags.body[0])).toEqual(['id', 'name']);
  });

  it('_fields does not touch errors, and a write answers with the fields asked for', async () => {
    const missing = await gw.api('GET', '/events/999999', { query: { _fields: 'id' } });
    expect([missing.status, missing.body.code]).toEqual([404, 'rest-event-not-found']);
    const made = await gw.api('POST', '/events', { token: 'editor', query: { _fields: 'id,title' }, body: { title: 'made with fields', ...DAY } });
    expect(made.status).toBe(201);
    expect(Object.keys(made.body)).toEqual(['id', 'title']);
  });

  it("_envelope answers 200 with the body, the status and the answer's own headers", async () => {
    const ev = await newEvent('enveloped');
    const res = await gw.api('GET', `/events/${ev.id}`, { query: { _envelope: '', _fields: 'id' } });
    expect(res.status).toBe(200);
    expect(res.text).toBe(`{"body":{"id":${ev.id}},"status":200,"headers":{"Allow":"GET"}}`);
    const list = await gw.api('GET', '/events', { query: { _envelope: 1, _fields: 'total', per_page: 2 } });
    expect(list.body.headers).toEqual({ 'X-TEC-Total': list.body.body.total, 'X-TEC-TotalPages': expect.any(Number), Allow: 'GET' });
    expect(list.headers.get('x-tec-total')).toBeNull();
  });

  it('_envelope wraps errors in 200 too, the challenge inside', async () => {
    const missing = await gw.api('GET', '/events/999999', { query: { _envelope: '1' } });
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual({
      body: { code: 'rest-event-not-found', message: 'Event with ID 999999 does not exist.', data: { status: 404 } },
      status: 404,
      headers: { Allow: 'GET' },
    });
    const anonymous = await gw.api('POST', '/events', { query: { _envelope: '1' }, body: { title: 'x' } });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.status).toBe(401);
    expect(Object.keys(anonymous.body.headers)).toEqual(['WWW-Authenticate', 'Allow']);
    expect(anonymous.headers.get('www-authenticate')).toBeNull();
    const noRoute = await gw.api('GET', '/nowhere', { query: { _envelope: '1' } });
    expect([noRoute.status, noRoute.body]).toEqual([200, { body: NO_ROUTE, status: 404, headers: [] }]);
  });

  it('conditional requests tag what was sent: a plain, a filtered and an enveloped read differ, each answers 304 to its own tag', async () => {
    const ev = await newEvent('tagged');
    const tags = [];
    const queries: Record<string, string>[] = [{}, { _fields: 'id' }, { _envelope: '1' }];
    for (const query of queries) {
      const first = await gw.api('GET', `/events/${ev.id}`, { query });
      const tag = first.headers.get('etag')!;
      tags.push(tag);
      expect((await gw.api('GET', `/events/${ev.id}`, { query, headers: { 'if-none-match': tag } })).status).toBe(304);
    }
    expect(new Set(tags).size).toBe(3);
  });

  it("_embed leaves TEC's answers as they are: they have no links to embed", async () => {
    const ev = await newEvent('embedded');
    const plain = await gw.api('GET', `/events/${ev.id}`);
    const embedded = await gw.api('GET', `/events/${ev.id}`, { query: { _embed: '1' } });
    expect(embedded.body).toEqual(plain.body);
  });
});

describe("_embed on WordPress's post routes", () => {
  it("embeds an event's terms by name in the embed context, and the author link's answer", async () => {
    const ev = await newEvent('embed terms', { categories: ['Zulu embed', 'alpha embed'], tags: ['beta embed'] });
    const res = await gw.api('GET', gw.abs(`/wp-json/wp/v2/tribe_events/${ev.id}`), { query: { _embed: '1' } });
    expect(Object.keys(res.body).slice(-2)).toEqual(['_links', '_embedded']);
    const [tags, cats] = res.body._embedded['wp:term'];
    expect(cats.map((t: { name: string }) => t.name)).toEqual(['alpha embed', 'Zulu embed']);
    expect(Object.keys(tags[0])).toEqual(['id', 'link', 'name', 'slug', 'taxonomy', '_links']);
    expect(tags[0]._links.self[0].targetHints).toEqual({ allow: ['GET'] });
    expect(res.body._embedded.author).toEqual([NO_ROUTE]);
    const onlyTerms = await gw.api('GET', gw.abs('/wp-json/wp/v2/tribe_events'), { query: { _embed: 'wp:term', include: String(ev.id) } });
    expect(Object.keys(onlyTerms.body[0]._embedded)).toEqual(['wp:term']);
    // `_fields` without `_embedded` keeps none of it, as WordPress answers.
    const filtered = await gw.api('GET', gw.abs(`/wp-json/wp/v2/tribe_events/${ev.id}`), { query: { _embed: '1', _fields: 'id' } });
    expect(filtered.body).toEqual({ id: ev.id });
    const plain = await gw.api('GET', gw.abs(`/wp-json/wp/v2/tribe_events/${ev.id}`));
    expect(plain.body._embedded).toBeUndefined();
  });
});

describe('discovery headers', () => {
  it("the site root sends WordPress's REST link and TEC's API headers, as a TEC site's home page does", async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await gw.api(method, gw.abs('/'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
      expect(res.headers.get('link')).toBe(`<${gw.origin}/wp-json/>; rel="https://api.w.org/"`);
      expect(res.headers.get('x-tec-api-version')).toBe('v1');
      expect(res.headers.get('x-tec-api-root')).toBe(`${gw.origin}/wp-json/tribe/events/v1/`);
      expect(res.headers.get('x-tec-api-origin')).toBe(gw.origin);
    }
    expect((await gw.api('GET', gw.abs('/'))).text).toContain(`<link rel="https://api.w.org/" href="${gw.origin}/wp-json/">`);
    // Other paths no route serves are still rest_no_route, with the REST link.
    const none = await gw.api('GET', gw.abs('/nowhere'));
    expect([none.status, none.body]).toEqual([404, NO_ROUTE]);
    expect(none.headers.get('link')).toBe(`<${gw.origin}/wp-json/>; rel="https://api.w.org/"`);
    expect(none.headers.get('x-tec-api-version')).toBeNull();
  });

  it('every REST answer links the REST root in the form of its URL, unless it has a Link of its own', async () => {
    const ev = await newEvent('linked');
    const byForm: [string, string][] = [
      [gw.abs(`/wp-json/tribe/events/v1/events/${ev.id}`), `${gw.origin}/wp-json/`],
      [gw.abs(`/en/tribe/events/v1/events/${ev.id}`), `${gw.origin}/en/`],
      [gw.abs(`/?rest_route=/tribe/events/v1/events/${ev.id}`), `${gw.origin}/index.php?rest_route=/`],
      [gw.abs('/wp-json/tribe/events/v1/events/999999'), `${gw.origin}/wp-json/`],
    ];
    for (const [url, root] of byForm) {
      const res = await gw.api('GET', url);
      expect(res.headers.get('link'), url).toBe(`<${root}>; rel="https://api.w.org/"`);
      expect(res.headers.get('x-robots-tag'), url).toBe('noindex');
      expect(res.headers.get('x-tec-api-root'), url).toBeNull();
    }
    await createAsEditor(gw, '/tags', { name: 'link one' });
    await createAsEditor(gw, '/tags', { name: 'link two' });
    const page = await gw.api('GET', gw.abs('/wp-json/wp/v2/tags'), { query: { per_page: 1, hide_empty: 0 } });
    expect(page.headers.get('link')).toMatch(/rel="next"$/);
  });
});

describe("an event's terms", () => {
  it('are listed by name as the database collation orders them, in every answer that lists them', async () => {
    const sent = ['zeta', 'Alpha', 'éclair', 'Beta', 'alpha2', '10 ten', '9 nine', 'Ecl'];
    const order = ['10 ten', '9 nine', 'Alpha', 'alpha2', 'Beta', 'Ecl', 'éclair', 'zeta'];
    const ev = await newEvent('ordered terms', { categories: sent, tags: ['b', 'A', 'a2'] });
    expect(ev.categories.map((c: { name: string }) => c.name)).toEqual(order);
    const read = await gw.api('GET', `/events/${ev.id}`);
    expect(read.body.categories.map((c: { name: string }) => c.name)).toEqual(order);
    expect(read.body.tags.map((c: { name: string }) => c.name)).toEqual(['A', 'a2', 'b']);
    const byName = new Map<string, number>(read.body.categories.map((c: { name: string; id: number }) => [c.name, c.id]));
    const wp = await gw.api('GET', gw.abs(`/wp-json/wp/v2/tribe_events/${ev.id}`));
    expect(wp.body.tribe_events_cat).toEqual(order.map((n) => byName.get(n)));
    expect(wp.body.tags).toEqual(read.body.tags.map((t: { id: number }) => t.id));
    const ical = await gw.api('GET', `/events/${ev.id}`, { query: { ical: 1 } });
    expect(ical.text).toContain(`CATEGORIES:${order.join(',')}`);
  });
});

describe('titles and slugs as WordPress saves them', () => {
  it('makes slugs as sanitize_title does, and falls back to the title for a slug with nothing usable', async () => {
    expect((await newEvent('c\\s')).slug).toBe('cs');
    expect((await newEvent('x\\\'y "q" + 1')).slug).toBe('xy-q-1');
    expect((await newEvent('Fallback title', { slug: "'" })).slug).toBe('fallback-title');
    const ev = await newEvent('Renamed title');
    const res = await gw.api('POST', `/events/${ev.id}`, { token: 'editor', body: { slug: '&#x41;' } });
    expect(res.body.slug).toBe('renamed-title');
  });

  it("keeps an editor's title of control characters, and refuses it from an author, as TEC does", async () => {
    const ev = await gw.api('POST', '/events', { token: 'editor', body: { title: '\u0007', ...DAY } });
    expect(ev.status, ev.text).toBe(201);
    expect(ev.body.title).toBe('\u0007');
    expect(ev.body.slug).toBe(String(ev.body.id));
    const venue = await gw.api('POST', '/venues', { token: 'editor', body: { venue: '\u0007\u0008' } });
    expect([venue.status, venue.body.venue]).toEqual([201, '\u0007\u0008']);
    const organizer = await gw.api('POST', '/organizers', { token: 'editor', body: { organizer: '\u0007' } });
    expect([organizer.status, organizer.body.organizer]).toEqual([201, '\u0007']);
    // PHP's trim() takes NUL and spaces: nothing is left.
    for (const title of ['\u0000', ' \u000b ']) {
      const empty = await gw.api('POST', '/events', { token: 'editor', body: { title, ...DAY } });
      expect(empty.status, JSON.stringify(title)).toBe(400);
    }
    // kses takes control characters out for authors: the title is empty.
    const byAuthor = await gw.api('POST', '/events', { token: 'author', body: { title: '\u0007', ...DAY } });
    expect(byAuthor.status).toBe(400);
    expect(byAuthor.body.code).toBe('rest_invalid_param');
  });

  it('refuses a term name of control characters, from editors too (WordPress filters term names for everyone)', async () => {
    for (const path of ['/categories', '/tags']) {
      const res = await gw.api('POST', path, { token: 'editor', body: { name: '\u0007' } });
      expect(res.status, path).toBe(400);
    }
  });
});
