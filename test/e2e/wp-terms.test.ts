// WordPress's core term routes (`wp/v2/tags`, `wp/v2/tribe_events_cat`) end to end through the
// local gateway: the shapes, codes, messages, headers and permissions the live WordPress 6.8 with
// TEC 6.17 answers, over the same terms as TEC's `/tags` and `/categories`.
import { describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { useGateway, type ApiOptions } from '../support/gateway.js';
import { expectError } from '../support/expect.js';

type Json = Record<string, any>;

const gw = useGateway({ tablePrefix: 'wpterms' });
const wp = (method: string, route: string, o: ApiOptions = {}) => gw.api(method, gw.abs(`/en/wp/v2${route}`), o);
const base = () => `${config().siteUrl}/en/wp/v2`;

const KINDS = [
  { route: '/tags', taxonomy: 'post_tag', tec: '/tags', page: 'tag', hierarchical: false, postTypes: ['posts', 'tribe_events', 'tec_calendar_embed'], filter: 'tags' },
  {
    route: '/tribe_events_cat',
    taxonomy: 'tribe_events_cat',
    tec: '/categories',
    page: 'events/category',
    hierarchical: true,
    postTypes: ['tribe_events', 'tec_calendar_embed'],
    filter: 'tribe_events_cat',
  },
] as const;

const ALL = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
let n = 0;
const unique = (prefix: string) => `${prefix} ${++n}`;

async function create(route: string, body: Json): Promise<Json> {
  const res = await wp('POST', route, { token: 'editor', body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

let day = 0;
async function event(body: Json): Promise<Json> {
  day++;
  const date = `2031-05-${String((day % 28) + 1).padStart(2, '0')}`;
  const res = await gw.api('POST', '/events', { token: 'editor', body: { title: `Event ${day}`, start_date: `${date} 10:00:00`, end_date: `${date} 11:00:00`, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

for (const k of KINDS) {
  describe(`wp/v2${k.route}`, () => {
    const keys = ['id', 'count', 'description', 'link', 'name', 'slug', 'taxonomy', ...(k.hierarchical ? ['parent'] : []), 'meta'];
    const links = (id: number, allow: string[], parent?: number) => ({
      self: [{ href: `${base()}${k.route}/${id}`, targetHints: { allow } }],
      collection: [{ href: `${base()}${k.route}` }],
      about: [{ href: `${base()}/taxonomies/${k.taxonomy}` }],
      ...(parent ? { up: [{ embeddable: true, href: `${base()}${k.route}/${parent}` }] } : {}),
      'wp:post_type': k.postTypes.map((t) => ({ href: `${base()}/${t}?${k.filter}=${id}` })),
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    });

    it('creates a term in WordPress’s shape, with Location, readable by TEC’s route too', async () => {
      const name = unique('Jazz & Blues');
      const res = await wp('POST', k.route, { token: 'editor', body: { name, description: 'Live <b>music</b>' } });
      expect(res.status, res.text).toBe(201);
      const t = res.body;
      expect(Object.keys(t)).toEqual([...keys, '_links']);
      expect(res.headers.get('location')).toBe(`${base()}${k.route}/${t.id}`);
      expect(res.headers.get('allow')).toBe('GET, POST');
      const slug = `jazz-blues-${n}`;
      expect(t).toEqual({
        id: t.id,
        count: 0,
        description: 'Live <b>music</b>',
        link: `${config().siteUrl}/${k.page}/${slug}/`,
        name: name.replace('&', '&amp;'),
        slug,
        taxonomy: k.taxonomy,
        ...(k.hierarchical ? { parent: 0 } : {}),
        meta: [],
        _links: links(t.id, ALL),
      });
      // The same term, through TEC's route.
      const tec = await gw.api('GET', `${k.tec}/${t.id}`);
      expect(tec.status).toBe(200);
      expect(tec.body).toMatchObject({ id: t.id, name: t.name, slug, taxonomy: k.taxonomy });
      // And a term made through TEC's route is WordPress's too; anonymous callers may only GET it.
      const other = (await gw.api('POST', k.tec, { token: 'editor', body: { name: unique('From TEC') } })).body;
      const read = await wp('GET', `${k.route}/${other.id}`);
      expect(read.status).toBe(200);
      expect(read.body._links.self[0].targetHints.allow).toEqual(['GET']);
      expect(read.headers.get('allow')).toBe('GET');
      expect((await wp('GET', `${k.route}/${other.id}`, { token: 'editor' })).headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');
      expect((await wp('GET', k.route)).headers.get('allow')).toBe('GET');
      expect((await wp('GET', k.route, { token: 'editor' })).headers.get('allow')).toBe('GET, POST');
      expect(read.body).toEqual({ ...read.body, id: other.id, count: 0, _links: links(other.id, ['GET']) });
    });

    it('refuses writes as WordPress does: anonymous 401, below editor 403, arguments first', async () => {
      expectError(await wp('POST', k.route, { body: { name: unique('x') } }), 401, 'rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.');
      expectError(
        await wp('POST', k.route, { token: 'author', body: { name: unique('x') } }),
        403,
        'rest_cannot_create',
        'Sorry, you are not allowed to create terms in this taxonomy.',
      );
      // WordPress validates arguments before it checks the caller.
      expectError(await wp('POST', k.route, { body: {} }), 400, 'rest_missing_callback_param', 'Missing parameter(s): name');
      const t = await create(k.route, { name: unique('Guarded') });
      expectError(await wp('POST', `${k.route}/${t.id}`, { body: { name: 'y' } }), 401, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.');
      expectError(await wp('PATCH', `${k.route}/${t.id}`, { token: 'author', body: { name: 'y' } }), 403, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.');
      expectError(await wp('DELETE', `${k.route}/${t.id}`, { query: { force: 'true' } }), 401, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this term.');
      expectError(
        await wp('DELETE', `${k.route}/${t.id}`, { token: 'contributor', query: { force: 'true' } }),
        403,
        'rest_cannot_delete',
        'Sorry, you are not allowed to delete this term.',
      );
      // A missing term is a 404 before the caller is looked at.
      expectError(await wp('DELETE', `${k.route}/99999`), 404, 'rest_term_invalid', 'Term does not exist.');
      expectError(await wp('POST', `${k.route}/99999`, { body: { name: 'y' } }), 404, 'rest_term_invalid', 'Term does not exist.');
      expect((await wp('GET', `${k.route}/${t.id}`)).status).toBe(200);
    });

    it('reads one term: 404 for an unknown id or another taxonomy’s, context=edit for editors, context=embed', async () => {
      expectError(await wp('GET', `${k.route}/99999`), 404, 'rest_term_invalid', 'Term does not exist.');
      const otherKind = KINDS.find((o) => o !== k)!;
      const other = await create(otherKind.route, { name: unique('Other taxonomy') });
      expectError(await wp('GET', `${k.route}/${other.id}`), 404, 'rest_term_invalid', 'Term does not exist.');
      const t = await create(k.route, { name: unique('Readable') });
      expectError(await wp('GET', `${k.route}/${t.id}`, { query: { context: 'edit' } }), 401, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this term.');
      expectError(await wp('GET', `${k.route}/${t.id}`, { token: 'author', query: { context: 'edit' } }), 403, 'rest_forbidden_context');
      const edit = await wp('GET', `${k.route}/${t.id}`, { token: 'editor', query: { context: 'edit' } });
      expect(edit.status).toBe(200);
      expect(edit.body).toEqual(t);
      const embed = await wp('GET', `${k.route}/${t.id}`, { query: { context: 'embed' } });
      expect(Object.keys(embed.body)).toEqual(['id', 'link', 'name', 'slug', 'taxonomy', '_links']);
      const bad = await wp('GET', `${k.route}/${t.id}`, { query: { context: 'foo' } });
      expectError(bad, 400, 'rest_invalid_param', 'Invalid parameter(s): context');
      expect(bad.body.data.params.context).toBe('context is not one of view, embed, and edit.');
    });

    it('updates with POST, PUT and PATCH, and deletes only with force=true', async () => {
      const t = await create(k.route, { name: unique('Before') });
      for (const method of ['POST', 'PUT', 'PATCH']) {
        const name = unique(`After ${method}`);
        const res = await wp(method, `${k.route}/${t.id}`, { token: 'editor', body: { name } });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toMatchObject({ id: t.id, name, slug: t.slug, description: '' });
        expect(res.body._links).toEqual(links(t.id, ALL));
      }
      const e = await event({ [k.tec.slice(1)]: [t.id] });
      expect(e[k.tec.slice(1)].map((x: Json) => x.id)).toEqual([t.id]);
      expectError(await wp('DELETE', `${k.route}/${t.id}`, { token: 'editor' }), 501, 'rest_trash_not_supported', "Terms do not support trashing. Set 'force=true' to delete.");
      const bad = await wp('DELETE', `${k.route}/${t.id}`, { token: 'editor', query: { force: 'x' } });
      expectError(bad, 400, 'rest_invalid_param', 'Invalid parameter(s): force');
      expect(bad.body.data.params.force).toBe('force is not of type boolean.');
      const before = (await wp('GET', `${k.route}/${t.id}`)).body;
      expect(before.count).toBe(1);
      const del = await wp('DELETE', `${k.route}/${t.id}`, { token: 'editor', query: { force: 'true' } });
      expect(del.status, del.text).toBe(200);
      const { _links, ...previous } = before;
      expect(del.body).toEqual({ deleted: true, previous });
      expectError(await wp('GET', `${k.route}/${t.id}`), 404, 'rest_term_invalid', 'Term does not exist.');
      // The event lost the term.
      const after = await gw.api('GET', `/events/${e.id}`);
      expect(after.body[k.tec.slice(1)]).toEqual([]);
    });

    it('lists as WordPress does: empty terms shown, X-WP-Total, X-WP-TotalPages and Link keep the query', async () => {
      const prefix = `List${k.hierarchical ? 'C' : 'T'}`;
      const made = [];
      for (const i of [3, 1, 2]) made.push(await create(k.route, { name: `${prefix} ${i}` }));
      const res = await wp('GET', k.route, { query: { search: prefix.toLowerCase(), per_page: 2, page: 1 } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('x-wp-total')).toBe('3');
      expect(res.headers.get('x-wp-totalpages')).toBe('2');
      expect(res.headers.get('link')).toBe(`<${base()}${k.route}?search=${prefix.toLowerCase()}&per_page=2&page=2>; rel="next"`);
      expect(res.body.map((t: Json) => t.name)).toEqual([`${prefix} 1`, `${prefix} 2`]);
      expect(Object.keys(res.body[0])).toEqual([...keys, '_links']);
      const last = await wp('GET', k.route, { query: { search: prefix.toLowerCase(), per_page: 2, page: 2 } });
      expect(last.body.map((t: Json) => t.name)).toEqual([`${prefix} 3`]);
      expect(last.headers.get('link')).toBe(`<${base()}${k.route}?search=${prefix.toLowerCase()}&per_page=2&page=1>; rel="prev"`);
      // Past the end: an empty page, its prev link to the last page.
      const past = await wp('GET', k.route, { query: { search: prefix.toLowerCase(), per_page: 2, page: 9 } });
      expect(past.status).toBe(200);
      expect(past.body).toEqual([]);
      expect(past.headers.get('link')).toBe(`<${base()}${k.route}?search=${prefix.toLowerCase()}&per_page=2&page=2>; rel="prev"`);
      // The query as WordPress sanitized it: booleans as 1 or a bare name, lists by index, PHP's encoding.
      const raw = await wp('GET', k.route, { query: { search: `${prefix.toLowerCase()} `, hide_empty: '0', include: `${made[0]!.id},${made[1]!.id}`, per_page: 1 } });
      expect(raw.headers.get('x-wp-total')).toBe('2');
      expect(raw.headers.get('link')).toBe(
        `<${base()}${k.route}?search=${prefix.toLowerCase()}+&hide_empty&include%5B0%5D=${made[0]!.id}&include%5B1%5D=${made[1]!.id}&per_page=1&page=2>; rel="next"`,
      );
      // An offset (tags only) wins over the page and names the page the links count from, as WordPress's does.
      const offset = await wp('GET', k.route, { query: { search: prefix.toLowerCase(), offset: 1, page: 3 } });
      if (k.hierarchical) {
        expect(offset.body.length).toBe(0);
      } else {
        expect(offset.body.map((t: Json) => t.name)).toEqual([`${prefix} 2`, `${prefix} 3`]);
        expect(offset.headers.get('link')).toBe(`<${base()}${k.route}?search=${prefix.toLowerCase()}&offset=1&page=1>; rel="prev"`);
      }
      // Unknown and nested query parameters stay in the links, as PHP builds them.
      const nested = await wp('GET', `${k.route}?a[][b]=1&search=${prefix.toLowerCase()}&per_page=1`);
      expect(nested.status, nested.text).toBe(200);
      expect(nested.headers.get('link')).toBe(`<${base()}${k.route}?a%5B0%5D%5Bb%5D=1&search=${prefix.toLowerCase()}&per_page=1&page=2>; rel="next"`);
      // hide_empty=true leaves out terms no published event carries.
      const hidden = await wp('GET', k.route, { query: { search: prefix.toLowerCase(), hide_empty: 'true' } });
      expect(hidden.body).toEqual([]);
      expect(hidden.headers.get('x-wp-total')).toBe('0');
      // Filters: include (unknown ids ignored, and its order), exclude, slug lists, order.
      const [three, one, two] = made.map((t) => t.id);
      const inc = await wp('GET', k.route, { query: { include: `${two},${three},99999`, orderby: 'include' } });
      expect(inc.body.map((t: Json) => t.id)).toEqual([two, three]);
      const exc = await wp('GET', k.route, { query: { search: prefix.toLowerCase(), exclude: `${one},99999`, order: 'desc' } });
      expect(exc.body.map((t: Json) => t.id)).toEqual([three, two]);
      const slugs = await wp('GET', k.route, { query: { slug: `${made[0]!.slug},${made[1]!.slug}`, orderby: 'id' } });
      expect(slugs.body.map((t: Json) => t.id)).toEqual([three, one]);
      const embed = await wp('GET', k.route, { query: { include: String(one), context: 'embed' } });
      expect(Object.keys(embed.body[0])).toEqual(['id', 'link', 'name', 'slug', 'taxonomy', '_links']);
    });

    it('limits a list to one event’s terms with post, and refuses bad list arguments in WordPress’s words', async () => {
      const a = await create(k.route, { name: unique('On event') });
      await create(k.route, { name: unique('Not on event') });
      const e = await event({ [k.tec.slice(1)]: [a.id] });
      const res = await wp('GET', k.route, { query: { post: e.id } });
      expect(res.body.map((t: Json) => t.id)).toEqual([a.id]);
      expect(res.body[0].count).toBe(1);
      expectError(await wp('GET', k.route, { query: { post: 99999 } }), 400, 'rest_post_invalid_id', 'Invalid post ID.');
      const draft = await event({ status: 'draft', [k.tec.slice(1)]: [a.id] });
      expectError(await wp('GET', k.route, { query: { post: draft.id } }), 401, 'rest_forbidden_context', 'Sorry, you are not allowed to view terms for this post.');
      expect((await wp('GET', k.route, { token: 'editor', query: { post: draft.id } })).body.map((t: Json) => t.id)).toEqual([a.id]);
      // Each with WordPress's schema code in `details` (the live TEC's answers, key for key).
      const refusals: [Json, string, string, string][] = [
        [{ per_page: 101 }, 'per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive)', 'rest_out_of_bounds'],
        [{ per_page: 0 }, 'per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive)', 'rest_out_of_bounds'],
        [{ per_page: 'abc' }, 'per_page', 'per_page is not of type integer.', 'rest_invalid_type'],
        [{ page: 0 }, 'page', 'page must be greater than or equal to 1', 'rest_out_of_bounds'],
        [{ order: 'x' }, 'order', 'order is not one of asc and desc.', 'rest_not_in_enum'],
        [{ hide_empty: 'x' }, 'hide_empty', 'hide_empty is not of type boolean.', 'rest_invalid_type'],
        [{ post: 'x' }, 'post', 'post is not of type integer.', 'rest_invalid_type'],
        [{ orderby: 'foo' }, 'orderby', 'orderby is not one of id, include, name, slug, include_slugs, term_group, description, and count.', 'rest_not_in_enum'],
        [{ include: '1.5' }, 'include', 'include[0] is not of type integer.', 'rest_invalid_type'],
        [{ exclude: '1,b' }, 'exclude', 'exclude[1] is not of type integer.', 'rest_invalid_type'],
      ];
      for (const [query, name, why, code] of refusals) {
        const bad = await wp('GET', k.route, { query });
        expectError(bad, 400, 'rest_invalid_param', `Invalid parameter(s): ${name}`);
        expect(bad.body.data.params[name]).toBe(why);
        const param = why.split(' ')[0];
        expect(bad.body.data.details).toEqual({ [name]: { code, message: why, data: code === 'rest_invalid_type' ? { param } : null } });
      }
      // Negative ids count as their absolute value, as wp_parse_id_list reads them.
      expect((await wp('GET', k.route, { query: { include: `-${a.id}`, hide_empty: 0 } })).body.map((t: Json) => t.id)).toEqual([a.id]);
      // TEC's own routes check by callback and record no details.
      const tecBad = await gw.api('GET', k.tec, { query: { page: 'x' } });
      expect(tecBad.status).toBe(400);
      expect(tecBad.body.data.details).toEqual([]);
      expectError(await wp('GET', k.route, { query: { context: 'edit' } }), 401, 'rest_forbidden_context', 'Sorry, you are not allowed to edit terms in this taxonomy.');
      expect((await wp('GET', k.route, { token: 'editor', query: { context: 'edit' } })).status).toBe(200);
    });
  });
}

describe('wp/v2/tribe_events_cat hierarchy, wp/v2/tags without one', () => {
  it('links a child to its parent, lists by parent, and refuses a parent that does not exist or is on a tag', async () => {
    const parent = await create('/tribe_events_cat', { name: unique('Parent') });
    const child = await create('/tribe_events_cat', { name: unique('Child'), parent: parent.id });
    expect(child.parent).toBe(parent.id);
    expect(Object.keys(child._links)).toEqual(['self', 'collection', 'about', 'up', 'wp:post_type', 'curies']);
    expect(child._links.up).toEqual([{ embeddable: true, href: `${base()}/tribe_events_cat/${parent.id}` }]);
    const children = await wp('GET', '/tribe_events_cat', { query: { parent: parent.id } });
    expect(children.body.map((t: Json) => t.id)).toEqual([child.id]);
    expect((await wp('GET', '/tribe_events_cat', { query: { parent: 99999 } })).body).toEqual([]);
    expectError(
      await wp('POST', '/tribe_events_cat', { token: 'editor', body: { name: unique('Orphan'), parent: 99999 } }),
      400,
      'rest_term_invalid',
      'Parent term does not exist.',
    );
    expectError(
      await wp('POST', '/tags', { token: 'editor', body: { name: unique('Tag'), parent: parent.id } }),
      400,
      'rest_taxonomy_not_hierarchical',
      'Cannot set parent term, taxonomy is not hierarchical.',
    );
    // A category's archive link nests under its ancestors' slugs, on every route that shows it
    // (the live TEC: /events/category/par/kid/grand/).
    const grand = await create('/tribe_events_cat', { name: unique('Grand'), parent: child.id });
    const nested = `${gw.origin}/events/category/${parent.slug}/${child.slug}/${grand.slug}/`;
    expect(grand.link).toBe(nested);
    expect((await wp('GET', `/tribe_events_cat/${grand.id}`)).body.link).toBe(nested);
    expect((await wp('GET', '/tribe_events_cat', { query: { parent: child.id } })).body[0].link).toBe(nested);
    expect((await gw.api('GET', `/categories/${grand.id}`)).body.url).toBe(nested);
    const listed = await gw.api('GET', '/categories', { query: { hide_empty: false, include: [grand.id, parent.id].join(',') } });
    expect(listed.body.categories.map((t: Json) => t.url)).toEqual(expect.arrayContaining([nested, `${gw.origin}/events/category/${parent.slug}/`]));
    const dup = await wp('POST', '/tags', { token: 'editor', body: { name: 'Twice' } });
    expect(dup.status).toBe(201);
    expectError(await wp('POST', '/tags', { token: 'editor', body: { name: 'Twice' } }), 400, 'term_exists', 'A term with the name provided already exists in this taxonomy.');
  });
});

describe("WordPress's URLs", () => {
  it('serve the term routes at /wp-json/wp/v2/… in the default language, linking in that form', async () => {
    const t = await create('/tags', { name: unique('At wp-json') });
    const res = await gw.api('GET', gw.abs('/wp-json/wp/v2/tags?hide_empty=0&per_page=1&page=1'));
    expect(res.status, res.text).toBe(200);
    expect(Number(res.headers.get('x-wp-total'))).toBeGreaterThan(0);
    const site = config().siteUrl;
    for (const term of res.body as Json[]) expect(term._links.collection).toEqual([{ href: `${site}/wp-json/wp/v2/tags` }]);
    const one = await gw.api('GET', gw.abs(`/wp-json/wp/v2/tags/${t.id}`));
    expect(one.body._links.self[0].href).toBe(`${site}/wp-json/wp/v2/tags/${t.id}`);
    // The tags made above: more than one page of one.
    expect(Number(res.headers.get('x-wp-totalpages'))).toBeGreaterThan(1);
    expect(res.headers.get('link')).toBe(`<${site}/wp-json/wp/v2/tags?hide_empty&per_page=1&page=2>; rel="next"`);
  });
});
