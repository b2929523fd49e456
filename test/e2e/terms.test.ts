// Categories, tags, the namespace root and /doc end to end, through the local gateway
// (docs/tec-behaviour.md §3.6, §4.3, §5.4, §6.3, §9, §1). Every request goes over HTTP to the real
// handlers and a fresh table.
import { describe, expect, it } from 'vitest';
import { useGateway, type ApiOptions, type ApiResponse, type GatewayHarness, type Lang } from '../support/gateway.js';
import { expectError, expectInvalidParams, NO_ROUTE } from '../support/expect.js';

const FORBIDDEN_401 = { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } };

type Json = Record<string, any>;

interface TermKind {
  /** Collection segment and list key. */
  path: 'categories' | 'tags';
  taxonomy: string;
  hierarchical: boolean;
  /** Public page URL path before the slug. */
  pagePath: string;
  /** Event field that links this kind. */
  eventField: 'categories' | 'tags';
  /** WordPress's term_exists message for this taxonomy. */
  existsMessage: string;
  keys: string[];
}

const CATEGORY: TermKind = {
  path: 'categories',
  taxonomy: 'tribe_events_cat',
  hierarchical: true,
  pagePath: 'events/category',
  eventField: 'categories',
  existsMessage: 'A term with the name provided already exists with this parent.',
  // seed/category.json without `_links`, plus `lang`
  keys: ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls', 'lang'],
};

const TAG: TermKind = {
  path: 'tags',
  taxonomy: 'post_tag',
  hierarchical: false,
  pagePath: 'tag',
  eventField: 'tags',
  existsMessage: 'A term with the name provided already exists in this taxonomy.',
  // seed/tag.json without `_links`, plus `lang`
  keys: ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls', 'lang'],
};

const KINDS = [CATEGORY, TAG];

function client(gw: GatewayHarness) {
  const api = <T = any>(method: string, path: string, opts?: ApiOptions): Promise<ApiResponse<T>> => gw.api<T>(method, path, opts);

  /**
   * A single term's answer without its `_links` (TEC 6.17.2 sends WordPress's on a read, a create
   * and an update: checked here, the self link naming the methods the caller may use).
   */
  function record(k: TermKind, body: Json, allow: string[]): Json {
    const { _links, ...rest } = body as Json & { _links: Json };
    expect(Object.keys(body)).toEqual([...k.keys, '_links']);
    const route = k.path === 'categories' ? 'tribe_events_cat' : 'tags';
    expect(_links.self).toEqual([{ href: expect.stringMatching(new RegExp(`/wp/v2/${route}/${body.id}$`)), targetHints: { allow } }]);
    expect(Object.keys(_links)).toEqual(['self', 'collection', 'about', ...(body.parent ? ['up'] : []), 'wp:post_type', 'curies']);
    return rest;
  }
  const EDITOR_ALLOW = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

  async function createTerm(k: TermKind, body: Json, lang: Lang = 'en'): Promise<Json> {
    const res = await api('POST', `/${k.path}`, { body, token: 'editor', lang });
    expect(res.status, res.text).toBe(201);
    return record(k, res.body as Json, EDITOR_ALLOW);
  }

  async function getTerm(k: TermKind, id: number): Promise<Json> {
    const res = await api('GET', `/${k.path}/${id}`);
    expect(res.status, res.text).toBe(200);
    return record(k, res.body as Json, ['GET']);
  }

  let day = 0;
  /** An event (published unless `status` says otherwise) on its own future day. */
  async function createEvent(body: Json): Promise<Json> {
    day++;
    const date = `2030-04-${String((day % 28) + 1).padStart(2, '0')}`;
    const res = await api('POST', '/events', {
      token: 'editor',
      body: { title: `Event ${day}`, start_date: `${date} 10:00:00`, end_date: `${date} 11:00:00`, ...body },
    });
    expect(res.status, res.text).toBe(201);
    return res.body as Json;
  }

  return { api, createTerm, getTerm, createEvent, record, EDITOR_ALLOW };
}

const ids = (list: Json[]) => list.map((t) => t.id);

describe('categories and tags: create, read, update, delete', () => {
  const gw = useGateway();
  const { api, createTerm, getTerm, createEvent, record, EDITOR_ALLOW } = client(gw);

  for (const k of KINDS) {
    const { path } = k;
    const collection = () => `${gw.base}/${path}`;

    describe(`${path}: create`, () => {
      it(`creates a term (201) with TEC's keys in TEC's order, and WordPress's _links`, async () => {
        const res = await api('POST', `/${path}`, { body: { name: `Concerts ${path}`, description: 'Live music' }, token: 'editor' });
        expect(res.status, res.text).toBe(201);
        expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
        const t = record(k, res.body, EDITOR_ALLOW);
        expect(res.body._links.collection).toEqual([{ href: expect.stringMatching(new RegExp(`/wp/v2/${k.path === 'categories' ? 'tribe_events_cat' : 'tags'}$`)) }]);
        expect(Number.isInteger(t.id)).toBe(true);
        const slug = `concerts-${path}`;
        expect(t).toEqual({
          id: t.id,
          count: 0,
          description: 'Live music',
          name: `Concerts ${path}`,
          slug,
          taxonomy: k.taxonomy,
          ...(k.hierarchical ? { parent: 0 } : {}),
          meta: [],
          url: `${gw.origin}/${k.pagePath}/${slug}/`,
          urls: { self: `${collection()}/${t.id}`, collection: collection() },
          lang: 'en',
        });
      });

      it('uses a given slug and an empty description by default', async () => {
        const t = await createTerm(k, { name: `Slugged ${path}`, slug: `my-own-${path}` });
        expect(t.slug).toBe(`my-own-${path}`);
        expect(t.description).toBe('');
        expect(t.url).toBe(`${gw.origin}/${k.pagePath}/my-own-${path}/`);
      });

      it('a duplicate name is 400 term_exists with data.term_id (case-insensitive)', async () => {
        const first = await createTerm(k, { name: `Dup ${path}` });
        for (const name of [`Dup ${path}`, `dup ${path.toUpperCase()}`]) {
          const res = await api('POST', `/${path}`, { body: { name }, token: 'editor' });
          expect(res.status, name).toBe(400);
          expect(res.body, name).toEqual({ code: 'term_exists', message: k.existsMessage, data: { status: 400, term_id: first.id } });
        }
      });

      it('the same name in another language is another term (docs/tec-behaviour.md §1.1)', async () => {
        const en = await createTerm(k, { name: `Polyglot ${path}` });
        const lt = await createTerm(k, { name: `Polyglot ${path}` }, 'lt');
        expect(lt.id).not.toBe(en.id);
        expect(lt.slug).toBe(en.slug);
        expect(lt.lang).toBe('lt');
        expect(lt.urls.self).toBe(`${gw.url(`/${path}`, 'lt')}/${lt.id}`);
      });

      it('an empty or missing name, or an empty slug or description, is 400', async () => {
        const missing = await api('POST', `/${path}`, { body: { description: 'x' }, token: 'editor' });
        expect(missing.status).toBe(400);
        expect(missing.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): name', data: { status: 400, params: ['name'] } });
        expectInvalidParams(await api('POST', `/${path}`, { body: { name: '' }, token: 'editor' }), 'name');
        expectInvalidParams(await api('POST', `/${path}`, { body: { name: 'Empty slug', slug: '' }, token: 'editor' }), 'slug');
        expectInvalidParams(await api('POST', `/${path}`, { body: { name: 'Empty description', description: '' }, token: 'editor' }), 'description');
      });

      it('anonymous create is 401 before validation; a contributor is 403', async () => {
        for (const body of [{ name: `Anon ${path}` }, {}]) {
          const res = await api('POST', `/${path}`, { body });
          expect(res.status).toBe(401);
          expect(res.body).toEqual(FORBIDDEN_401);
        }
        const contributor = await api('POST', `/${path}`, { body: { name: `Contrib ${path}` }, token: 'contributor' });
        expectError(contributor, 403, 'rest_forbidden');
        const list = await api('GET', `/${path}`, { query: { hide_empty: false, per_page: 50 } });
        expect(list.body[path].map((t: Json) => t.name)).not.toContain(`Anon ${path}`);
        expect(list.body[path].map((t: Json) => t.name)).not.toContain(`Contrib ${path}`);
      });
    });

    describe(`${path}: read`, () => {
      it('GET by id is 200 with the same object', async () => {
        const made = await createTerm(k, { name: `Readable ${path}`, description: 'Hands-on' });
        const res = await api('GET', `/${path}/${made.id}`);
        expect(res.status).toBe(200);
        // Anonymous: the self link allows GET alone.
        expect(record(k, res.body, ['GET'])).toEqual(made);
      });

      it('an unknown id is 400; a non-numeric id is 404', async () => {
        expectInvalidParams(await api('GET', `/${path}/987654`), 'id');
        for (const id of ['foo', 'foo-bar', '1x']) {
          const res = await api('GET', `/${path}/${id}`);
          expect(res.status, id).toBe(404);
          expect(res.body, id).toEqual(NO_ROUTE);
        }
      });

      it(`a term of the other taxonomy under /${path} is 400`, async () => {
        const other = k === CATEGORY ? TAG : CATEGORY;
        const o = await createTerm(other, { name: `Other of ${path}` });
        expectInvalidParams(await api('GET', `/${path}/${o.id}`), 'id');
        expectInvalidParams(await api('PATCH', `/${path}/${o.id}`, { body: { description: 'x' }, token: 'editor' }), 'id');
        expectInvalidParams(await api('DELETE', `/${path}/${o.id}`, { token: 'editor' }), 'id');
        expect((await api('GET', `/${other.path}/${o.id}`)).status).toBe(200);
      });

      it('a term of another language is found by id', async () => {
        const ru = await createTerm(k, { name: `Русский ${path}` }, 'ru');
        const res = await api('GET', `/${path}/${ru.id}`, { lang: 'en' });
        expect(res.status).toBe(200);
        expect(res.body.lang).toBe('ru');
        expect(res.body.id).toBe(ru.id);
      });
    });

    describe(`${path}: update`, () => {
      it('renames (slug kept), changes the slug, the description: 200 each, partial', async () => {
        const made = await createTerm(k, { name: `Old ${path}`, description: 'First' });
        const renamed = await api('PATCH', `/${path}/${made.id}`, { body: { name: `New ${path}` }, token: 'editor' });
        expect(renamed.status, renamed.text).toBe(200);
        expect(record(k, renamed.body, EDITOR_ALLOW)).toEqual({ ...made, name: `New ${path}` });

        const reslugged = await api('PUT', `/${path}/${made.id}`, { body: { slug: `fresh-${path}` }, token: 'editor' });
        expect(reslugged.status, reslugged.text).toBe(200);
        expect(record(k, reslugged.body, EDITOR_ALLOW)).toEqual({ ...made, name: `New ${path}`, slug: `fresh-${path}`, url: `${gw.origin}/${k.pagePath}/fresh-${path}/` });

        const described = await api('POST', `/${path}/${made.id}`, { body: { description: 'Second' }, token: 'editor' });
        expect(described.status, described.text).toBe(200);
        expect(described.body.description).toBe('Second');
        expect(described.body.name).toBe(`New ${path}`);
        expect(described.body.slug).toBe(`fresh-${path}`);

        expect(await getTerm(k, made.id)).toEqual(record(k, described.body, EDITOR_ALLOW));
        // The old name is free again, the new one is taken.
        const reuse = await createTerm(k, { name: `Old ${path}` });
        expect(reuse.slug).toBe(`old-${path}`);
        const taken = await api('POST', `/${path}`, { body: { name: `New ${path}` }, token: 'editor' });
        expectError(taken, 400, 'term_exists');
        expect(taken.body.data.term_id).toBe(made.id);
      });

      it('a slug another term uses is 400 and changes nothing', async () => {
        const a = await createTerm(k, { name: `Slug A ${path}` });
        const b = await createTerm(k, { name: `Slug B ${path}` });
        const res = await api('PATCH', `/${path}/${b.id}`, { body: { slug: a.slug }, token: 'editor' });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('duplicate_term_slug');
        expect(res.body.message).toBe(`The slug &#8220;${a.slug}&#8221; is already in use by another term.`);
        expect((await getTerm(k, b.id)).slug).toBe(b.slug);
      });

      it('a create that asks for a taken slug gets the next free one, as WordPress (wp_unique_term_slug)', async () => {
        const a = await createTerm(k, { name: `Wanted A ${path}`, slug: `wanted-${path}` });
        const b = await createTerm(k, { name: `Wanted B ${path}`, slug: `wanted-${path}` });
        const c = await createTerm(k, { name: `Wanted C ${path}`, slug: `Wanted ${path}` });
        expect([a.slug, b.slug, c.slug]).toEqual([`wanted-${path}`, `wanted-${path}-2`, `wanted-${path}-3`]);
      });

      it('an empty name is 400; an unknown id is 400; anonymous is 401', async () => {
        const made = await createTerm(k, { name: `Guarded ${path}` });
        expectInvalidParams(await api('PATCH', `/${path}/${made.id}`, { body: { name: '' }, token: 'editor' }), 'name');
        expectInvalidParams(await api('PATCH', `/${path}/987654`, { body: { name: 'x' }, token: 'editor' }), 'id');
        for (const id of [made.id, 987654]) {
          const res = await api('PATCH', `/${path}/${id}`, { body: { name: 'Hijacked' } });
          expect(res.status).toBe(401);
          expect(res.body).toEqual(FORBIDDEN_401);
        }
        expect((await getTerm(k, made.id)).name).toBe(`Guarded ${path}`);
      });
    });

    describe(`${path}: delete`, () => {
      it('DELETE is 200 with the last state (count as it was); then the id is gone', async () => {
        const made = await createTerm(k, { name: `Doomed ${path}`, description: 'Bye' });
        const keeper = await createTerm(k, { name: `Keeper ${path}` });
        const event = await createEvent({ [k.eventField]: [made.id, keeper.id] });
        expect(ids(event[k.eventField])).toEqual([made.id, keeper.id]);
        expect((await getTerm(k, made.id)).count).toBe(1);

        const res = await api('DELETE', `/${path}/${made.id}`, { token: 'editor' });
        expect(res.status, res.text).toBe(200);
        expect(Object.keys(res.body)).toEqual(k.keys);
        expect(res.body).toEqual({ ...made, count: 1 });
        expect(res.body).not.toHaveProperty('_links');

        expectInvalidParams(await api('GET', `/${path}/${made.id}`), 'id');
        expectInvalidParams(await api('DELETE', `/${path}/${made.id}`, { token: 'editor' }), 'id');

        // The event lost the term and kept the other one.
        const after = await api('GET', `/events/${event.id}`);
        expect(after.status).toBe(200);
        expect(ids(after.body[k.eventField])).toEqual([keeper.id]);
        expect((await getTerm(k, keeper.id)).count).toBe(1);
        // Its name and slug are free again.
        const again = await createTerm(k, { name: `Doomed ${path}` });
        expect(again.id).not.toBe(made.id);
        expect(again.slug).toBe(made.slug);
      });

      it('anonymous DELETE is 401 (even for an unknown id); an unknown id is 400', async () => {
        const made = await createTerm(k, { name: `Protected ${path}` });
        for (const id of [made.id, 987654]) {
          const res = await api('DELETE', `/${path}/${id}`);
          expect(res.status).toBe(401);
          expect(res.body).toEqual(FORBIDDEN_401);
        }
        expect((await api('GET', `/${path}/${made.id}`)).status).toBe(200);
        expectInvalidParams(await api('DELETE', `/${path}/987654`, { token: 'editor' }), 'id');
        expectError(await api('DELETE', `/${path}/${made.id}`, { token: 'contributor' }), 403, 'rest_forbidden');
      });
    });

    describe(`${path}: count`, () => {
      const counter = (id: number) => async () => (await getTerm(k, id)).count;

      it('counts exactly the published events that carry the term', async () => {
        const t = await createTerm(k, { name: `Counted ${path}` });
        const count = counter(t.id);

        const a = await createEvent({ [k.eventField]: [t.id] });
        expect(await count()).toBe(1);
        expect(a[k.eventField][0].count).toBe(1);
        const b = await createEvent({ [k.eventField]: [t.id] });
        expect(await count()).toBe(2);
        const draft = await createEvent({ [k.eventField]: [t.id], status: 'draft' });
        expect(draft.status).toBe('draft');
        expect(await count()).toBe(2);
        // The list shows the same number.
        const listed = (await api('GET', `/${path}`, { query: { per_page: 50 } })).body[path].find((x: Json) => x.id === t.id);
        expect(listed.count).toBe(2);

        // trash
        expect((await api('DELETE', `/events/${a.id}`, { token: 'editor' })).status).toBe(200);
        expect(await count()).toBe(1);
        // taking the term off a published event, and putting it back
        expect((await api('PATCH', `/events/${b.id}`, { body: { [k.eventField]: [] }, token: 'editor' })).status).toBe(200);
        expect(await count()).toBe(0);
        expect((await api('PATCH', `/events/${b.id}`, { body: { [k.eventField]: [t.id] }, token: 'editor' })).status).toBe(200);
        expect(await count()).toBe(1);
        // deleting permanently: a published one counts down, a draft or a trashed one does not
        expect((await api('DELETE', `/events/${draft.id}`, { token: 'editor', query: { force: true } })).status).toBe(200);
        expect((await api('DELETE', `/events/${a.id}`, { token: 'editor', query: { force: true } })).status).toBe(200);
        expect(await count()).toBe(1);
        expect((await api('DELETE', `/events/${b.id}`, { token: 'editor', query: { force: true } })).status).toBe(200);
        expect(await count()).toBe(0);
      });

      it('publishing and unpublishing an event through an update moves the count', async () => {
        const t = await createTerm(k, { name: `Status counted ${path}` });
        const count = counter(t.id);
        const e = await createEvent({ [k.eventField]: [t.id] });
        expect(await count()).toBe(1);

        const toDraft = await api('PATCH', `/events/${e.id}`, { body: { status: 'draft' }, token: 'editor' });
        expect(toDraft.status).toBe(200);
        expect(toDraft.body.status).toBe('draft');
        expect(await count()).toBe(0);

        const toPublish = await api('PATCH', `/events/${e.id}`, { body: { status: 'publish' }, token: 'editor' });
        expect(toPublish.status).toBe(200);
        expect(toPublish.body.status).toBe('publish');
        expect(await count()).toBe(1);
      });
    });
  }

  describe('category parents', () => {
    it('a child category shows its parent and urls.up', async () => {
      const parent = await createTerm(CATEGORY, { name: 'Music' });
      const child = await createTerm(CATEGORY, { name: 'Jazz', parent: parent.id });
      expect(Object.keys(child)).toEqual(CATEGORY.keys);
      expect(child.parent).toBe(parent.id);
      const base = `${gw.base}/categories`;
      expect(child.urls).toEqual({ self: `${base}/${child.id}`, collection: base, up: `${base}/${parent.id}` });
      expect(Object.keys(child.urls)).toEqual(['self', 'collection', 'up']);
      expect(await getTerm(CATEGORY, child.id)).toEqual(child);
      // Back to the top level.
      const top = await api('PATCH', `/categories/${child.id}`, { body: { parent: 0 }, token: 'editor' });
      expect(top.status).toBe(200);
      expect(top.body.parent).toBe(0);
      expect(top.body.urls).toEqual({ self: `${base}/${child.id}`, collection: base });
    });

    it('the same name under another parent is allowed; under the same parent it is term_exists', async () => {
      const a = await createTerm(CATEGORY, { name: 'Parent A' });
      const b = await createTerm(CATEGORY, { name: 'Parent B' });
      const first = await createTerm(CATEGORY, { name: 'Shared child', parent: a.id });
      const res = await api('POST', '/categories', { body: { name: 'Shared child', parent: a.id }, token: 'editor' });
      expect(res.body).toEqual({ code: 'term_exists', message: CATEGORY.existsMessage, data: { status: 400, term_id: first.id } });
      const second = await createTerm(CATEGORY, { name: 'Shared child', parent: b.id });
      expect(second.id).not.toBe(first.id);
      expect(second.parent).toBe(b.id);
      expect(second.slug).not.toBe(first.slug);
    });

    it("deleting a parent moves its children up to the deleted term's parent", async () => {
      const grand = await createTerm(CATEGORY, { name: 'Grand' });
      const parent = await createTerm(CATEGORY, { name: 'Middle', parent: grand.id });
      const child = await createTerm(CATEGORY, { name: 'Leaf', parent: parent.id });
      expect((await api('DELETE', `/categories/${parent.id}`, { token: 'editor' })).status).toBe(200);
      const after = await getTerm(CATEGORY, child.id);
      expect(after.parent).toBe(grand.id);
      expect(after.urls.up).toBe(`${gw.base}/categories/${grand.id}`);
      expect((await api('DELETE', `/categories/${grand.id}`, { token: 'editor' })).status).toBe(200);
      const top = await getTerm(CATEGORY, child.id);
      expect(top.parent).toBe(0);
      expect(top.urls).not.toHaveProperty('up');
    });

    it('ml_language in the body sets the term language', async () => {
      const t = await createTerm(CATEGORY, { name: 'Body language', ml_language: 'lt' });
      expect(t.lang).toBe('lt');
      expect(t.urls.self).toBe(`${gw.url('/categories', 'lt')}/${t.id}`);
    });

    it('an unknown parent, or a tag as parent, is 400', async () => {
      expectInvalidParams(await api('POST', '/categories', { body: { name: 'Orphan', parent: 987654 }, token: 'editor' }), 'parent');
      const tag = await createTerm(TAG, { name: 'Not a parent' });
      expectInvalidParams(await api('POST', '/categories', { body: { name: 'Orphan', parent: tag.id }, token: 'editor' }), 'parent');
      const cat = await createTerm(CATEGORY, { name: 'Stays top' });
      expectInvalidParams(await api('PATCH', `/categories/${cat.id}`, { body: { parent: 987654 }, token: 'editor' }), 'parent');
      expect((await getTerm(CATEGORY, cat.id)).parent).toBe(0);
    });

    it('a parent on a tag is 400 rest_taxonomy_not_hierarchical', async () => {
      const cat = await createTerm(CATEGORY, { name: 'Would-be tag parent' });
      const expected = { code: 'rest_taxonomy_not_hierarchical', message: 'Cannot set parent term, taxonomy is not hierarchical.', data: { status: 400 } };
      const res = await api('POST', '/tags', { body: { name: 'Child tag', parent: cat.id }, token: 'editor' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
      const tag = await createTerm(TAG, { name: 'Flat tag' });
      const upd = await api('PATCH', `/tags/${tag.id}`, { body: { parent: cat.id }, token: 'editor' });
      expect(upd.status).toBe(400);
      expect(upd.body).toEqual(expected);
      expect(await getTerm(TAG, tag.id)).not.toHaveProperty('parent');
    });
  });
});

describe('category and tag lists', () => {
  const gw = useGateway();
  const { api, createTerm, createEvent } = client(gw);

  for (const k of KINDS) {
    const { path } = k;
    const bare = () => `${gw.base}/${path}/`;

    describe(`GET /${path}`, () => {
      it('an empty taxonomy is 200 with [], 0, 0', async () => {
        const res = await api('GET', `/${path}`, { query: { hide_empty: false } });
        expect(res.status).toBe(200);
        expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', path]);
        expect(res.body).toEqual({ rest_url: bare(), total: 0, total_pages: 0, [path]: [] });
        expect(res.headers.get('x-tec-total')).toBe('0');
        expect(res.headers.get('x-tec-totalpages')).toBe('0');
      });

      it('hides terms without published events by default; hide_empty=false shows them, by name', async () => {
        const banana = await createTerm(k, { name: 'banana' });
        const apple = await createTerm(k, { name: 'Apple' });
        const cherry = await createTerm(k, { name: 'Cherry' });
        await createEvent({ [k.eventField]: [apple.id] });
        await createEvent({ [k.eventField]: [cherry.id], status: 'draft' });

        const dflt = await api('GET', `/${path}`);
        expect(dflt.status).toBe(200);
        expect(Object.keys(dflt.body)).toEqual(['rest_url', 'total', 'total_pages', path]);
        expect(dflt.body.rest_url).toBe(bare());
        expect(ids(dflt.body[path])).toEqual([apple.id]);
        expect(dflt.body.total).toBe(1);
        expect(dflt.body.total_pages).toBe(1);
        expect(dflt.headers.get('x-tec-total')).toBe('1');
        expect(dflt.headers.get('x-tec-totalpages')).toBe('1');
        // List items carry no _links and equal the single read.
        expect(dflt.body[path][0]).toEqual({ ...apple, count: 1 });
        expect(dflt.body[path][0]).not.toHaveProperty('_links');
        expect(ids((await api('GET', `/${path}`, { query: { hide_empty: true } })).body[path])).toEqual([apple.id]);

        for (const off of [false, 'false', 0, 'no']) {
          const all = await api('GET', `/${path}`, { query: { hide_empty: off } });
          expect(all.status).toBe(200);
          // WordPress orders by name, case-insensitively.
          expect(ids(all.body[path]), String(off)).toEqual([apple.id, banana.id, cherry.id]);
          expect(all.body.total).toBe(3);
          expect(all.body.rest_url).toBe(bare());
        }
      });

      it('pages: bare rest_url, next/previous links with page only, beyond the last page 200 empty', async () => {
        // In lt, so that the other tests' terms do not count.
        const lt = () => `${gw.url(`/${path}`, 'lt')}/`;
        const made: Json[] = [];
        for (const name of ['Date', 'banana', 'Cherry', 'Apple']) made.push(await createTerm(k, { name }, 'lt'));
        const [date, banana, cherry, apple] = made as [Json, Json, Json, Json];
        const get = (query: Json) => api('GET', `/${path}`, { lang: 'lt', query: { hide_empty: false, ...query } });

        const p1 = await get({ per_page: 3 });
        expect(p1.status).toBe(200);
        expect(Object.keys(p1.body)).toEqual(['rest_url', 'total', 'total_pages', path, 'next_rest_url']);
        expect(p1.body.rest_url).toBe(lt());
        expect(p1.body.next_rest_url).toBe(`${lt()}?page=2`);
        expect(p1.body.total).toBe(4);
        expect(p1.body.total_pages).toBe(2);
        expect(ids(p1.body[path])).toEqual([apple.id, banana.id, cherry.id]);
        expect(p1.headers.get('x-tec-total')).toBe('4');
        expect(p1.headers.get('x-tec-totalpages')).toBe('2');

        const p2 = await get({ per_page: 3, page: 2 });
        expect(p2.status).toBe(200);
        expect(Object.keys(p2.body)).toEqual(['rest_url', 'total', 'total_pages', path, 'previous_rest_url']);
        expect(ids(p2.body[path])).toEqual([date.id]);
        expect(p2.body.previous_rest_url).toBe(lt());
        expect(p2.body.rest_url).toBe(lt());

        const p3 = await get({ per_page: 3, page: 3 });
        expect(p3.status).toBe(200);
        expect(p3.body[path]).toEqual([]);
        expect(p3.body.total).toBe(4);
        expect(p3.body.total_pages).toBe(2);
        expect(p3.body).not.toHaveProperty('next_rest_url');
        expect(p3.headers.get('x-tec-total')).toBe('4');

        const mid = await get({ per_page: 1, page: 3 });
        expect(Object.keys(mid.body)).toEqual(['rest_url', 'total', 'total_pages', path, 'next_rest_url', 'previous_rest_url']);
        expect(mid.body.next_rest_url).toBe(`${lt()}?page=4`);
        expect(mid.body.previous_rest_url).toBe(`${lt()}?page=2`);
        expect(ids(mid.body[path])).toEqual([cherry.id]);
      });

      it('does not list terms of another language', async () => {
        const ru = await createTerm(k, { name: 'Яблоко' }, 'ru');
        const en = await api('GET', `/${path}`, { query: { hide_empty: false, per_page: 50 } });
        expect(ids(en.body[path])).not.toContain(ru.id);
        const inRu = await api('GET', `/${path}`, { lang: 'ru', query: { hide_empty: false } });
        expect(ids(inRu.body[path])).toEqual([ru.id]);
        expect(inRu.body.rest_url).toBe(`${gw.url(`/${path}`, 'ru')}/`);
        const override = await api('GET', `/${path}`, { query: { hide_empty: false, ml_language: 'ru' } });
        expect(ids(override.body[path])).toEqual([ru.id]);
      });

      it('rejects bad paging and hide_empty values with 400', async () => {
        const bad: [string, string | number][] = [
          ['page', 0],
          ['per_page', 0],
          ['per_page', 'many'],
          ['hide_empty', 'maybe'],
        ];
        for (const [param, value] of bad) {
          expectInvalidParams(await api('GET', `/${path}`, { query: { [param]: value } }), param);
        }
      });
    });
  }
});

describe('namespace root and /doc', () => {
  const gw = useGateway();
  const { api } = client(gw);

  const ROUTES = [
    '/tribe/events/v1',
    '/tribe/events/v1/doc',
    '/tribe/events/v1/events',
    '/tribe/events/v1/events/(?P<id>\\d+)',
    '/tribe/events/v1/events/by-slug/(?P<slug>[^/]+)',
    '/tribe/events/v1/venues',
    '/tribe/events/v1/venues/(?P<id>\\d+)',
    '/tribe/events/v1/venues/by-slug/(?P<slug>[^/]+)',
    '/tribe/events/v1/organizers',
    '/tribe/events/v1/organizers/(?P<id>\\d+)',
    '/tribe/events/v1/organizers/by-slug/(?P<slug>[^/]+)',
    '/tribe/events/v1/categories',
    '/tribe/events/v1/categories/(?P<id>\\d+)',
    '/tribe/events/v1/tags',
    '/tribe/events/v1/tags/(?P<id>\\d+)',
  ];

  it('GET the namespace root, with or without the trailing slash', async () => {
    const slash = await api('GET', '/');
    const bare = await api('GET', '');
    expect(slash.status).toBe(200);
    expect(bare.status).toBe(200);
    expect(slash.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(bare.body).toEqual(slash.body);
    const root = slash.body;
    expect(Object.keys(root)).toEqual(['namespace', 'routes', '_links']);
    expect(root.namespace).toBe('tribe/events/v1');
    expect(Object.keys(root.routes)).toEqual(expect.arrayContaining(ROUTES));
    expect(root._links.up).toEqual([{ href: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//) }]);
  });

  it('every route has its namespace, methods and endpoints with args', async () => {
    const { routes } = (await api('GET', '/')).body;
    for (const [route, r] of Object.entries<Json>(routes)) {
      expect(r.namespace, route).toBe('tribe/events/v1');
      expect(Array.isArray(r.methods) && r.methods.length > 0, route).toBe(true);
      expect(Array.isArray(r.endpoints) && r.endpoints.length > 0, route).toBe(true);
      const endpointMethods: string[] = [];
      for (const e of r.endpoints) {
        expect(Array.isArray(e.methods), route).toBe(true);
        expect(e.args !== null && typeof e.args === 'object', route).toBe(true);
        for (const [name, arg] of Object.entries<Json>(Array.isArray(e.args) ? {} : e.args)) {
          expect(typeof arg.required, `${route} ${name}`).toBe('boolean');
        }
        endpointMethods.push(...e.methods);
      }
      // The route's methods are exactly its endpoints' methods.
      expect([...endpointMethods].sort(), route).toEqual([...r.methods].sort());
      // Routes with path variables have no _links; the others link to themselves.
      if (route.includes('(?P<')) expect(r, route).not.toHaveProperty('_links');
      else expect(r._links, route).toEqual({ self: [{ href: `${gw.origin}/en${route}` }] });
    }
  });

  it('the events routes describe their arguments as TEC does', async () => {
    const { routes } = (await api('GET', '/')).body;
    const events = routes['/tribe/events/v1/events'];
    expect(events.methods).toEqual(['GET', 'POST']);
    const get = events.endpoints.find((e: Json) => e.methods.includes('GET'));
    expect(get.args.page).toMatchObject({ type: 'integer', default: 1, required: false });
    expect(get.args.per_page).toMatchObject({ type: 'integer', required: false });
    const post = events.endpoints.find((e: Json) => e.methods.includes('POST'));
    expect(post.args.title).toMatchObject({ type: 'string', required: true });
    expect(post.args.start_date.required).toBe(true);

    const single = routes['/tribe/events/v1/events/(?P<id>\\d+)'];
    expect([...single.methods].sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
    const edit = single.endpoints.find((e: Json) => e.methods.includes('PATCH'));
    expect([...edit.methods].sort()).toEqual(['PATCH', 'POST', 'PUT']);
    expect(edit.args.id).toMatchObject({ type: 'integer', required: true });
    // Updates are partial: nothing but the id is required.
    expect(edit.args.title.required).toBe(false);

    const venues = routes['/tribe/events/v1/venues'];
    const venuePost = venues.endpoints.find((e: Json) => e.methods.includes('POST'));
    expect(venuePost.args.venue).toMatchObject({ type: 'string', required: true });
    const categories = routes['/tribe/events/v1/categories'];
    const catGet = categories.endpoints.find((e: Json) => e.methods.includes('GET'));
    expect(catGet.args.hide_empty).toMatchObject({ type: 'boolean', default: true, required: false });
  });

  it("the root route's own args are WordPress's namespace and context", async () => {
    const { routes } = (await api('GET', '/')).body;
    const self = routes['/tribe/events/v1'];
    expect(self.methods).toEqual(['GET']);
    expect(self._links).toEqual({ self: [{ href: gw.base }] });
    expect(self.endpoints[0].args.namespace).toMatchObject({ required: false, default: 'tribe/events/v1' });
    expect(self.endpoints[0].args.context).toMatchObject({ required: false, default: 'view' });
  });

  it('GET /doc is the OpenAPI document', async () => {
    const res = await api('GET', '/doc');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const doc = res.body;
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'components', 'servers', 'paths']);
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info).toEqual({
      version: '1.0.0',
      title: 'The Events Calendar REST API',
      description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
    });
    expect(doc.servers[0].url).toBe(`${gw.base}/`);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/doc',
        '/events',
        '/events/{id}',
        '/events/by-slug/{slug}',
        '/venues',
        '/venues/{id}',
        '/venues/by-slug/{slug}',
        '/organizers',
        '/organizers/{id}',
        '/organizers/by-slug/{slug}',
        '/categories',
        '/categories/{id}',
        '/tags',
        '/tags/{id}',
      ]),
    );
    expect(doc.paths['/events']).toHaveProperty('get');
    expect(doc.paths['/events']).toHaveProperty('post');
    expect(doc.paths['/events/{id}']).toHaveProperty('get');
    expect(doc.paths['/events/{id}']).toHaveProperty('delete');
    expect(doc.paths['/categories']).toHaveProperty('get');
    expect(doc.paths['/tags/{id}']).toHaveProperty('get');
    const page = doc.paths['/events'].get.parameters.find((p: Json) => p.name === 'page');
    expect(page).toMatchObject({ in: 'query', schema: { type: 'integer' } });
  });

  it('/doc under another language names that language in servers', async () => {
    const res = await api('GET', '/doc', { lang: 'lt' });
    expect(res.status).toBe(200);
    expect(res.body.servers[0].url).toBe(`${gw.url('', 'lt')}/`);
  });

  it('unknown paths, languages and methods are 404 rest_no_route', async () => {
    for (const path of ['/xx/tribe/events/v1/', '/xx/tribe/events/v1', '/en/tribe/events/v1/nope', '/en/tribe/events/v1/doc/more', '/nothing']) {
      const res = await fetch(gw.abs(path));
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual(NO_ROUTE);
    }
    const del = await api('DELETE', '/', { token: 'editor' });
    expect(del.status).toBe(404);
    expect(del.body).toEqual(NO_ROUTE);
    const putList = await api('PUT', '/tags', { token: 'editor', body: { name: 'x' } });
    expect(putList.status).toBe(404);
    expect(putList.body).toEqual(NO_ROUTE);
  });
});

describe('category and tag list filters (docs/tec-behaviour.md §4.3)', () => {
  const gw = useGateway();
  const { api, createTerm, createEvent } = client(gw);

  for (const k of KINDS) {
    const { path } = k;
    const listed = async (query: Json) => {
      const res = await api('GET', `/${path}`, { query: { hide_empty: false, per_page: 50, ...query } });
      expect(res.status, res.text).toBe(200);
      return ids(res.body[path] as Json[]);
    };

    it('search matches the name or the slug; slug matches exactly', async () => {
      const foo = await createTerm(k, { name: 'Foo' });
      const bar = await createTerm(k, { name: 'Something', slug: 'foo-bar' });
      const other = await createTerm(k, { name: 'Other' });
      expect((await listed({ search: 'foo' })).sort()).toEqual([foo.id, bar.id].sort());
      expect(await listed({ slug: 'foo-bar' })).toEqual([bar.id]);
      expect(await listed({ slug: 'other' })).toEqual([other.id]);
      expectInvalidParams(await api('GET', `/${path}`, { query: { slug: '' } }), 'slug');
      expectInvalidParams(await api('GET', `/${path}`, { query: { search: '' } }), 'search');
    });

    it('include and exclude take ids; unknown ids are 400', async () => {
      const a = await createTerm(k, { name: 'Include A' });
      const b = await createTerm(k, { name: 'Include B' });
      expect(await listed({ include: [a.id, b.id] })).toEqual([a.id, b.id]);
      expect(await listed({ exclude: [a.id] })).not.toContain(a.id);
      expect(await listed({ exclude: [a.id] })).toContain(b.id);
      expectInvalidParams(await api('GET', `/${path}`, { query: { include: [a.id, 987654] } }), 'include');
      expectInvalidParams(await api('GET', `/${path}`, { query: { exclude: [987654] } }), 'exclude');
    });

    it('event (or post) lists the terms of that event; event wins over post; unknown is 400', async () => {
      const t1 = await createTerm(k, { name: 'On event one' });
      const t2 = await createTerm(k, { name: 'On event two' });
      const e1 = await createEvent({ [k.eventField]: [t1.id] });
      const e2 = await createEvent({ [k.eventField]: [t2.id] });
      expect(await listed({ event: e1.id })).toEqual([t1.id]);
      expect(await listed({ post: e2.id })).toEqual([t2.id]);
      expect(await listed({ event: e1.id, post: e2.id })).toEqual([t1.id]);
      expectInvalidParams(await api('GET', `/${path}`, { query: { event: 987654 } }), 'event');
    });

    it('orderby=id&order=desc sorts by id, newest first', async () => {
      const got = await listed({ orderby: 'id', order: 'desc' });
      expect(got.length).toBeGreaterThan(2);
      expect(got).toEqual([...got].sort((x, y) => y - x));
      expectInvalidParams(await api('GET', `/${path}`, { query: { order: '' } }), 'order');
    });
  }

  it('parent lists the direct children of a category; an unknown parent is 400', async () => {
    const root = await createTerm(CATEGORY, { name: 'Filter root' });
    const child = await createTerm(CATEGORY, { name: 'Filter child', parent: root.id });
    await createTerm(CATEGORY, { name: 'Filter grandchild', parent: child.id });
    expect(await (async () => ids((await api('GET', '/categories', { query: { hide_empty: false, parent: root.id } })).body.categories))()).toEqual([child.id]);
    expectInvalidParams(await api('GET', '/categories', { query: { parent: 987654 } }), 'parent');
  });
});
