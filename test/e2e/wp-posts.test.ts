// WordPress's core post-type routes (`wp/v2/tribe_events`, `tribe_venue`, `tribe_organizer`) end
// to end through the local gateway: the shapes, codes, messages, headers and permissions the live
// WordPress 6.8 with TEC 6.17 answers, over the same records as TEC's routes.
import { describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { useGateway, type ApiOptions } from '../support/gateway.js';
import { expectError, expectInvalidParams } from '../support/expect.js';

type Json = Record<string, any>;

const gw = useGateway({ tablePrefix: 'wpposts' });
const wp = (method: string, route: string, o: ApiOptions = {}, prefix = 'en') => gw.api(method, gw.abs(`/${prefix}/wp/v2${route}`), o);
const base = (prefix = 'en') => `${config().siteUrl}/${prefix}/wp/v2`;
const ALL = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

async function tec(route: string, body: Json, token = 'editor'): Promise<Json> {
  const res = await gw.api('POST', route, { token, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

let day = 0;
const event = (body: Json, token = 'editor') => {
  day++;
  const date = `2031-07-${String((day % 28) + 1).padStart(2, '0')}`;
  return tec('/events', { title: `Gig ${day}`, start_date: `${date} 19:00:00`, end_date: `${date} 21:00:00`, ...body }, token);
};

const VIEW_KEYS = [
  'id',
  'date',
  'date_gmt',
  'guid',
  'modified',
  'modified_gmt',
  'slug',
  'status',
  'type',
  'link',
  'title',
  'content',
  'excerpt',
  'author',
  'featured_media',
  'template',
  'meta',
];
const EVENT_META = [
  '_EventAllDay',
  '_EventTimezone',
  '_EventStartDate',
  '_EventEndDate',
  '_EventStartDateUTC',
  '_EventEndDateUTC',
  '_EventShowMap',
  '_EventShowMapLink',
  '_EventURL',
  '_EventCost',
  '_EventCostDescription',
  '_EventCurrencySymbol',
  '_EventCurrencyCode',
  '_EventCurrencyPosition',
  '_EventDateTimeSeparator',
  '_EventTimeRangeSeparator',
  '_EventOrganizerID',
  '_EventVenueID',
  '_OrganizerEmail',
  '_OrganizerPhone',
  '_OrganizerWebsite',
  '_VenueAddress',
  '_VenueCity',
  '_VenueCountry',
  '_VenueProvince',
  '_VenueState',
  '_VenueZip',
  '_VenuePhone',
  '_VenueURL',
  '_VenueStateProvince',
  '_VenueLat',
  '_VenueLng',
  '_VenueShowMap',
  '_VenueShowMapLink',
];

describe('wp/v2 post types', () => {
  let venue: Json;
  let organizer: Json;
  let concert: Json;

  it('shows an event, its venue and its organizer in WordPress’s view shape, with TEC’s meta', async () => {
    venue = await tec('/venues', {
      venue: 'Hall',
      address: '1 Main St',
      city: 'Springfield',
      country: 'US',
      state: 'IL',
      zip: '62701',
      phone: '555-1234',
      website: 'https://hall.example',
    });
    organizer = await tec('/organizers', { organizer: 'Org', email: 'org@example.com', phone: '555-9', website: 'https://org.example' });
    concert = await event({
      title: 'Concert',
      description: '<p>Hello <b>world</b></p>',
      excerpt: 'Short',
      cost: '15',
      website: 'https://ev.example',
      venue: venue.id,
      organizer: [organizer.id],
      show_map: true,
      timezone: 'Europe/Paris',
      categories: ['Music'],
      tags: ['Loud'],
    });
    const res = await wp('GET', `/tribe_events/${concert.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('allow')).toBe('GET');
    const e = res.body;
    expect(Object.keys(e)).toEqual([...VIEW_KEYS, 'tags', 'tribe_events_cat', 'class_list', '_links']);
    expect(Object.keys(e.meta)).toEqual([...EVENT_META, '_tribe_events_status', '_tribe_events_status_reason', 'footnotes']);
    const link = `${config().siteUrl}/event/concert/`;
    expect(e).toMatchObject({
      id: concert.id,
      guid: { rendered: link },
      slug: 'concert',
      status: 'publish',
      type: 'tribe_events',
      link,
      title: { rendered: 'Concert' },
      content: { rendered: '<p>Hello <b>world</b></p>\n', protected: false },
      excerpt: { rendered: '<p>Short</p>\n', protected: false },
      featured_media: 0,
      template: '',
    });
    expect(e.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(e.meta).toMatchObject({
      _EventAllDay: false,
      _EventTimezone: 'Europe/Paris',
      _EventStartDate: '2031-07-02 19:00:00',
      _EventStartDateUTC: '2031-07-02 17:00:00',
      _EventShowMap: true,
      _EventURL: 'https://ev.example',
      _EventCost: '15',
      _EventOrganizerID: [organizer.id],
      _EventVenueID: [venue.id],
      _VenueAddress: '',
      footnotes: '',
    });
    expect(e.tags).toHaveLength(1);
    expect(e.tribe_events_cat).toHaveLength(1);
    expect(e.class_list).toEqual([`post-${e.id}`, 'tribe_events', 'type-tribe_events', 'status-publish', 'hentry', 'tag-loud', 'tribe_events_cat-music', 'cat_music']);
    const self = `${base()}/tribe_events/${e.id}`;
    expect(e._links).toEqual({
      self: [{ href: self, targetHints: { allow: ['GET'] } }],
      collection: [{ href: `${base()}/tribe_events` }],
      about: [{ href: `${base()}/types/tribe_events` }],
      author: [{ embeddable: true, href: `${base()}/users/${e.author}` }],
      'version-history': [{ count: 0, href: `${self}/revisions` }],
      'wp:attachment': [{ href: `${base()}/media?parent=${e.id}` }],
      'wp:term': [
        { taxonomy: 'post_tag', embeddable: true, href: `${base()}/tags?post=${e.id}` },
        { taxonomy: 'tribe_events_cat', embeddable: true, href: `${base()}/tribe_events_cat?post=${e.id}` },
      ],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    });

    const v = (await wp('GET', `/tribe_venue/${venue.id}`)).body;
    expect(Object.keys(v)).toEqual([...VIEW_KEYS, '_links']);
    expect(v.type).toBe('tribe_venue');
    expect(Object.keys(v.meta)).toEqual([...EVENT_META, 'footnotes']);
    expect(v.meta).toMatchObject({
      _VenueAddress: '1 Main St',
      _VenueCity: 'Springfield',
      _VenueZip: '62701',
      _VenuePhone: '555-1234',
      _VenueURL: 'https://hall.example',
      _EventStartDate: '',
    });
    expect(Object.keys(v._links)).toEqual(['self', 'collection', 'about', 'author', 'version-history', 'wp:attachment', 'curies']);
    const o = (await wp('GET', `/tribe_organizer/${organizer.id}`)).body;
    expect(o.meta).toMatchObject({ _OrganizerEmail: 'org@example.com', _OrganizerPhone: '555-9', _OrganizerWebsite: 'https://org.example', _VenueAddress: '' });
    expect(o.link).toBe(`${config().siteUrl}/organizer/org/`);
  });

  it('shows the edit context to editors, with the raw fields and action links, and refuses it to others', async () => {
    const res = await wp('GET', `/tribe_events/${concert.id}`, { token: 'editor', query: { context: 'edit' } });
    expect(res.status, res.text).toBe(200);
    const e = res.body;
    expect(Object.keys(e)).toEqual([
      'id',
      'date',
      'date_gmt',
      'guid',
      'modified',
      'modified_gmt',
      'password',
      'slug',
      'status',
      'type',
      'link',
      'title',
      'content',
      'excerpt',
      'author',
      'featured_media',
      'template',
      'meta',
      'tags',
      'tribe_events_cat',
      'permalink_template',
      'generated_slug',
      'class_list',
      '_links',
    ]);
    expect(e.title).toEqual({ raw: 'Concert', rendered: 'Concert' });
    expect(e.content).toEqual({ raw: '<p>Hello <b>world</b></p>', rendered: '<p>Hello <b>world</b></p>\n', protected: false, block_version: 0 });
    expect(e.excerpt).toEqual({ raw: 'Short', rendered: '<p>Short</p>\n', protected: false });
    expect(e.guid.raw).toBe(e.link);
    expect(e.password).toBe('');
    expect(e.permalink_template).toBe(`${config().siteUrl}/event/%pagename%/`);
    expect(e.generated_slug).toBe('concert');
    expect(e._links.self[0].targetHints.allow).toEqual(ALL);
    expect(Object.keys(e._links).filter((k) => k.startsWith('wp:action-'))).toEqual([
      'wp:action-publish',
      'wp:action-unfiltered-html',
      'wp:action-assign-author',
      'wp:action-create-tags',
      'wp:action-assign-tags',
      'wp:action-create-tribe_events_cat',
      'wp:action-assign-tribe_events_cat',
    ]);
    expect(res.headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');
    // The view context of an editor has no action links.
    const view = (await wp('GET', `/tribe_events/${concert.id}`, { token: 'editor' })).body;
    expect(Object.keys(view._links).some((k) => k.startsWith('wp:action-'))).toBe(false);

    expectError(await wp('GET', `/tribe_events/${concert.id}`, { query: { context: 'edit' } }), 401, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.');
    expectError(
      await wp('GET', `/tribe_events/${concert.id}`, { token: 'contributor', query: { context: 'edit' } }),
      403,
      'rest_forbidden_context',
      'Sorry, you are not allowed to edit this post.',
    );
    expectError(await wp('GET', '/tribe_events', { query: { context: 'edit' } }), 401, 'rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.');
    // Contributors may edit posts of the type: the list's edit context is theirs.
    const list = await wp('GET', '/tribe_events', { token: 'contributor', query: { context: 'edit' } });
    expect(list.status, list.text).toBe(200);
    expect(list.headers.get('allow')).toBe('GET, POST');
  });

  it('shows drafts to their author and to editors only, and lists them only when asked for', async () => {
    const draft = await event({ title: 'Contributor draft' }, 'contributor');
    expect(draft.status).toBe('draft');
    expectError(await wp('GET', `/tribe_events/${draft.id}`), 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
    expectError(await wp('GET', `/tribe_events/${draft.id}`, { token: 'author' }), 403, 'rest_forbidden');
    const own = await wp('GET', `/tribe_events/${draft.id}`, { token: 'contributor', query: { context: 'edit' } });
    expect(own.status, own.text).toBe(200);
    expect(own.body.status).toBe('draft');
    expect(own.body._links.self[0].targetHints.allow).toEqual(ALL);
    expect(Object.keys(own.body._links).filter((k) => k.startsWith('wp:action-'))).toEqual(['wp:action-create-tags', 'wp:action-assign-tags', 'wp:action-assign-tribe_events_cat']);
    expect((await wp('GET', `/tribe_events/${draft.id}`, { token: 'editor' })).status).toBe(200);

    const ids = async (o: ApiOptions) => {
      const res = await wp('GET', '/tribe_events', { ...o, query: { per_page: 100, ...o.query } });
      expect(res.status, res.text).toBe(200);
      return (res.body as Json[]).map((e) => e.id);
    };
    // WordPress lists published posts unless asked: editors too.
    expect(await ids({ token: 'editor' })).not.toContain(draft.id);
    expect(await ids({ token: 'editor', query: { status: 'draft' } })).toContain(draft.id);
    expect(await ids({ token: 'contributor', query: { status: 'draft,publish' } })).toContain(draft.id);
    expect(await ids({ token: 'author', query: { status: 'any' } })).not.toContain(draft.id);
    const forbidden = await wp('GET', '/tribe_events', { query: { status: 'draft' } });
    expectInvalidParams(forbidden, 'status');
    expect(forbidden.body.data.details.status).toEqual({ code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: 401 } });
    expectInvalidParams(await wp('GET', '/tribe_events', { token: 'editor', query: { status: 'nope' } }), 'status');
  });

  it('hides a protected event’s content unless the password is given, and refuses a wrong one', async () => {
    const secret = await event({ title: 'Secret', description: 'Secret words here for everyone', password: 'pw1' });
    const locked = (await wp('GET', `/tribe_events/${secret.id}`)).body;
    expect(locked.content).toEqual({ rendered: '', protected: true });
    expect(locked.excerpt).toEqual({ rendered: '', protected: true });
    expect(locked.class_list).toEqual([`post-${secret.id}`, 'tribe_events', 'type-tribe_events', 'status-publish', 'post-password-required', 'hentry']);
    const open = (await wp('GET', `/tribe_events/${secret.id}`, { query: { password: 'pw1' } })).body;
    expect(open.content).toEqual({ rendered: '<p>Secret words here for everyone</p>\n', protected: true });
    // No excerpt: WordPress makes one of the content.
    expect(open.excerpt).toEqual({ rendered: '<p>Secret words here for everyone</p>\n', protected: true });
    expectError(await wp('GET', `/tribe_events/${secret.id}`, { query: { password: 'bad' } }), 403, 'rest_post_incorrect_password', 'Incorrect post password.');
    // A password given for a post without one is wrong too.
    expectError(await wp('GET', `/tribe_events/${concert.id}`, { query: { password: 'pw1' } }), 403, 'rest_post_incorrect_password');
    // Editors see it whole in the edit context, password included; a list hides it as a read does.
    const edit = (await wp('GET', `/tribe_events/${secret.id}`, { token: 'editor', query: { context: 'edit' } })).body;
    expect(edit.password).toBe('pw1');
    expect(edit.content.rendered).toBe('<p>Secret words here for everyone</p>\n');
    // A contributor's list in the edit context shows others' events, but not a locked one's password or texts.
    const contributor = (await wp('GET', '/tribe_events', { token: 'contributor', query: { context: 'edit', include: secret.id } })).body as Json[];
    expect(contributor.map((e) => [e.password, e.content.raw, e.content.rendered])).toEqual([['', '', '']]);
    // WordPress searches protected posts for signed-in users only.
    expect((await wp('GET', '/tribe_events', { query: { search: 'secret words' } })).body).toEqual([]);
    expect((await wp('GET', '/tribe_events', { token: 'author', query: { search: 'secret words' } })).body.map((e: Json) => e.id)).toEqual([secret.id]);
    const listed = (await wp('GET', '/tribe_events', { query: { include: secret.id } })).body as Json[];
    expect(listed.map((e) => e.content)).toEqual([{ rendered: '', protected: true }]);
  });

  it('answers unknown ids, ids of another type and bad parameters with WordPress’s errors', async () => {
    expectError(await wp('GET', '/tribe_events/999999'), 404, 'rest_post_invalid_id', 'Invalid post ID.');
    expectError(await wp('GET', `/tribe_events/${venue.id}`), 404, 'rest_post_invalid_id');
    expectError(await wp('GET', `/tribe_venue/${concert.id}`), 404, 'rest_post_invalid_id');
    expectError(await wp('GET', `/tribe_organizer/${venue.id}`), 404, 'rest_post_invalid_id');
    expectError(
      await wp('GET', '/tribe_events', { query: { page: 9999 } }),
      400,
      'rest_post_invalid_page_number',
      'The page number requested is larger than the number of pages available.',
    );
    const perPage = await wp('GET', '/tribe_events', { query: { per_page: 101 } });
    expectInvalidParams(perPage, 'per_page');
    expect(perPage.body.data.params.per_page).toBe('per_page must be between 1 (inclusive) and 100 (inclusive)');
    const orderby = await wp('GET', '/tribe_events', { query: { orderby: 'foo' } });
    expectInvalidParams(orderby, 'orderby');
    expect(orderby.body.data.params.orderby).toBe('orderby is not one of author, date, id, include, modified, parent, relevance, slug, include_slugs, and title.');
    expect((await wp('GET', '/tribe_events', { query: { include: 'a' } })).body.data.params.include).toBe('include[0] is not of type integer.');
    expect((await wp('GET', '/tribe_events', { query: { context: 'foo' } })).body.data.params.context).toBe('context is not one of view, embed, and edit.');
    expect((await wp('GET', '/tribe_events', { query: { author: 'abc' } })).body.data.params.author).toBe('author[0] is not of type integer.');
    expectError(await wp('GET', '/tribe_events', { query: { orderby: 'relevance' } }), 400, 'rest_no_search_term_defined');
    expectError(await wp('GET', '/tribe_events', { query: { orderby: 'include' } }), 400, 'rest_orderby_include_missing_include');
  });

  it('filters, orders and pages lists, with WordPress’s headers and links, under each root', async () => {
    const made: Json[] = [];
    for (const [i, title] of ['Banana', 'apple', 'Cherry'].entries()) made.push(await event({ title: `Fruit ${title}`, tags: ['fruit'], date: `2026-01-0${i + 1} 10:00:00` }));
    const fruit = (await wp('GET', `/tribe_events/${made[0]!.id}`)).body.tags as number[];
    const list = async (query: Json, prefix = 'en') => {
      const res = await wp('GET', '/tribe_events', { query: { tags: fruit.join(','), ...query } }, prefix);
      expect(res.status, res.text).toBe(200);
      return res;
    };
    // Newest first by default.
    const byDate = await list({});
    expect((byDate.body as Json[]).map((e) => e.id)).toEqual(made.map((e) => e.id).reverse());
    expect(byDate.headers.get('x-wp-total')).toBe('3');
    expect(byDate.headers.get('x-wp-totalpages')).toBe('1');
    // One page: no pagination link, only WordPress's link to the REST root.
    expect(byDate.headers.get('link')).toMatch(/^<[^>]+\/>; rel="https:\/\/api\.w\.org\/"$/);
    expect((await list({ orderby: 'title', order: 'asc' })).body.map((e: Json) => e.title.rendered)).toEqual(['Fruit apple', 'Fruit Banana', 'Fruit Cherry']);
    expect((await list({ orderby: 'id', order: 'asc' })).body.map((e: Json) => e.id)).toEqual(made.map((e) => e.id));
    expect((await list({ orderby: 'slug', order: 'asc' })).body.map((e: Json) => e.slug)).toEqual(['fruit-apple', 'fruit-banana', 'fruit-cherry']);
    // TEC lists events asked for by include in the order they start, not in the order given.
    const include = [made[2]!.id, made[0]!.id];
    expect((await list({ include: include.join(','), orderby: 'include' })).body.map((e: Json) => e.id)).toEqual([made[0]!.id, made[2]!.id]);
    // Events of the same publication date: the one that starts first first, whichever the order.
    const twins = [
      await event({ title: 'Twin late', date: '2026-02-01 10:00:00' }),
      await event({ title: 'Twin early', date: '2026-02-01 10:00:00', start_date: '2031-07-01 08:00:00', end_date: '2031-07-01 09:00:00' }),
    ];
    for (const order of ['asc', 'desc']) {
      const res = await wp('GET', '/tribe_events', { query: { include: twins.map((t) => t.id).join(','), order } });
      expect(res.body.map((e: Json) => e.id)).toEqual([twins[1]!.id, twins[0]!.id]);
    }
    expect((await list({ exclude: made[1]!.id })).body.map((e: Json) => e.id)).toEqual([made[2]!.id, made[0]!.id]);
    // WP_Query ignores exclude beside include.
    expect((await list({ include: made[1]!.id, exclude: made[1]!.id })).body.map((e: Json) => e.id)).toEqual([made[1]!.id]);
    expect((await list({ search: 'cherry' })).body.map((e: Json) => e.id)).toEqual([made[2]!.id]);
    expect((await list({ slug: 'fruit-apple,fruit-banana', orderby: 'id', order: 'asc' })).body.map((e: Json) => e.id)).toEqual([made[0]!.id, made[1]!.id]);
    expect((await list({ tags_exclude: fruit.join(',') })).body).toEqual([]);
    expect((await list({ author: 999 })).body).toEqual([]);
    expect((await list({ offset: 2 })).body.map((e: Json) => e.id)).toEqual([made[0]!.id]);

    const page2 = await list({ per_page: 1, page: 2 });
    expect(page2.body.map((e: Json) => e.id)).toEqual([made[1]!.id]);
    expect(page2.headers.get('x-wp-totalpages')).toBe('3');
    // Lists as WordPress sanitized them: `tags[0]=…`.
    const q = `tags%5B0%5D=${fruit[0]}&per_page=1`;
    expect(page2.headers.get('link')).toBe(`<${base()}/tribe_events?${q}&page=1>; rel="prev", <${base()}/tribe_events?${q}&page=3>; rel="next"`);

    // The same list at WordPress's own URL, linked there.
    const wpJson = await list({ per_page: 1 }, 'wp-json');
    expect(wpJson.body.map((e: Json) => e.id)).toEqual([made[2]!.id]);
    expect(wpJson.body[0]._links.self[0].href).toBe(`${config().siteUrl}/wp-json/wp/v2/tribe_events/${made[2]!.id}`);
    expect(wpJson.headers.get('link')).toBe(`<${config().siteUrl}/wp-json/wp/v2/tribe_events?${q}&page=2>; rel="next"`);

    // Embed: the short shape.
    const embed = (await list({ context: 'embed', per_page: 1 })).body[0];
    expect(Object.keys(embed)).toEqual(['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media', '_links']);

    // Venues and organizers list newest first from their index.
    const venues = await wp('GET', '/tribe_venue', {}, 'wp-json');
    expect(venues.status, venues.text).toBe(200);
    expect(venues.body.map((v: Json) => v.id)).toEqual([venue.id]);
    expect(venues.headers.get('x-wp-total')).toBe('1');
    const organizers = await wp('GET', '/tribe_organizer', { query: { search: 'org' } });
    expect(organizers.body.map((o: Json) => o.id)).toEqual([organizer.id]);
  });
});
