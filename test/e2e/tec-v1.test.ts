// TEC's `tec/v1` namespace end to end through the local gateway, on DynamoDB Local: its gate, its
// shapes, its permissions and answers, its URL forms, and the records it shares with the v1
// routes (written through one, read through the other). test/tec/tec-v1.test.ts compares it with
// the live TEC.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { config } from '#lib/runtime/config.js';
import { TEC_V1_ACKNOWLEDGEMENT } from '#lib/contract/operations.js';
import { createAsEditor } from '../support/expect.js';
import { useGateway, type ApiOptions } from '../support/gateway.js';

type Json = Record<string, any>;

const gw = useGateway({ tablePrefix: 'tecv1' });
const ACK = {
  'x-tec-eea':
    'I understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. I also understand that I am using this endpoint at my own risk, while support is not provided for it.',
};
/** A request to tec/v1, acknowledged unless `ack: false`. */
const tv = (method: string, route: string, o: ApiOptions & { ack?: false } = {}, prefix = 'en') =>
  gw.api(method, gw.abs(`/${prefix}/tec/v1${route}`), { ...o, headers: { ...(o.ack === false ? {} : ACK), ...o.headers } });

const EVENT_KEYS = [
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
  'tags',
  'tribe_events_cat',
  'class_list',
  'start_date',
  'start_date_utc',
  'end_date',
  'end_date_utc',
  'dates',
  'timezone',
  'duration',
  'multiday',
  'is_past',
  'is_now',
  'all_day',
  'starts_this_week',
  'ends_this_week',
  'this_week_duration',
  'happens_this_week',
  'displays_on',
  'featured',
  'sticky',
  'cost',
  'organizer_names',
  'organizers',
  'venues',
  'schedule_details',
  'short_schedule_details',
];
const POST_KEYS = EVENT_KEYS.slice(0, EVENT_KEYS.indexOf('template') + 1);
const VENUE_KEYS = [...POST_KEYS, 'address', 'country', 'city', 'state_province', 'state', 'province', 'zip', 'phone', 'directions_link', 'website'];
const ORGANIZER_KEYS = [...POST_KEYS, 'phone', 'website', 'email'];

const UNACKNOWLEDGED = { code: 'missing_experimental_endpoint_acknowledgement', message: 'Experimental endpoint requires acknowledgement header.', data: { status: 400 } };
const MISACKNOWLEDGED = { ...UNACKNOWLEDGED, message: 'Experimental endpoint requires appropriate acknowledgement header.' };
const FORBIDDEN = (status: number) => ({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status } });

describe('tec/v1: the gate', () => {
  it('answers a record route only with the acknowledgement, after the caller’s permission; the index and document without', async () => {
    const venue = await createAsEditor(gw, '/venues', { venue: 'Gate Hall' });
    expect(TEC_V1_ACKNOWLEDGEMENT).toBe(ACK['x-tec-eea'].toLowerCase());
    for (const route of ['/events', '/venues', '/organizers', `/venues/${venue.id}`]) {
      const missing = await tv('GET', route, { ack: false });
      expect([missing.status, missing.body], route).toEqual([400, UNACKNOWLEDGED]);
      const wrong = await tv('GET', route, { ack: false, headers: { 'x-tec-eea': 'I understand.' } });
      expect([wrong.status, wrong.body], route).toEqual([400, MISACKNOWLEDGED]);
      // PHP's empty(): "0" is no header.
      expect((await tv('GET', route, { ack: false, headers: { 'x-tec-eea': '0' } })).body, route).toEqual(UNACKNOWLEDGED);
      const shouted = await tv('GET', route, { ack: false, headers: { 'x-tec-eea': `  ${ACK['x-tec-eea'].toUpperCase()}\t` } });
      expect(shouted.status, route).toBe(200);
      // Caches keep the answers to acknowledged requests apart.
      expect(shouted.headers.get('vary'), route).toBe('Authorization, Origin, X-TEC-EEA');
    }
    // Who may not read or write is refused first, gate or not.
    expect((await tv('GET', '/events/999999', { ack: false })).body).toEqual(FORBIDDEN(401));
    expect((await tv('GET', '/events/999999', { ack: false, token: 'editor' })).body).toEqual(FORBIDDEN(403));
    expect((await tv('POST', '/venues', { ack: false, body: { title: 'Nobody’s' } })).body).toEqual(FORBIDDEN(401));
    expect((await tv('PATCH', '/venues/999999', { ack: false, token: 'editor', body: { phone: '1' } })).body).toEqual(FORBIDDEN(403));
    // The caller's own write, unacknowledged, writes nothing.
    expect((await tv('POST', '/venues', { ack: false, token: 'editor', body: { title: 'Unacknowledged Hall' } })).body).toEqual(UNACKNOWLEDGED);
    expect((await tv('DELETE', `/venues/${venue.id}`, { ack: false, token: 'editor' })).body).toEqual(UNACKNOWLEDGED);
    expect((await gw.api('GET', `/venues/${venue.id}`)).body.venue).toBe('Gate Hall');
    const listed = (await tv('GET', '/venues')).body.map((v: Json) => v.title.rendered);
    expect(listed).toEqual(['Gate Hall']);
    for (const route of ['', '/docs']) expect((await tv('GET', route, { ack: false })).status, route).toBe(200);
  });
});

describe('tec/v1: records shared with the v1 routes', () => {
  it('reads what v1 wrote in TEC’s shapes and key order, at every URL form of the site', async () => {
    const venue = await createAsEditor(gw, '/venues', { venue: 'Shared Hall', city: 'Vilnius', country: 'Lithuania', stateprovince: 'VL' });
    const organizer = await createAsEditor(gw, '/organizers', { organizer: 'Shared Org', email: 'org@example.com' });
    const event = await createAsEditor(gw, '/events', {
      title: 'Shared Concert',
      description: 'Two & more',
      start_date: '2031-05-04 19:00:00',
      end_date: '2031-05-04 21:30:00',
      timezone: 'Europe/Vilnius',
      cost: '12',
      venue: venue.id,
      organizer: [organizer.id],
      categories: ['Shared Music'],
      tags: ['shared-tag'],
    });
    const res = await tv('GET', `/events/${event.id}`);
    expect(res.status, res.text).toBe(200);
    const e = res.body;
    expect(Object.keys(e)).toEqual(EVENT_KEYS);
    expect(e).toMatchObject({
      id: event.id,
      slug: 'shared-concert',
      status: 'publish',
      type: 'tribe_events',
      link: `${config().siteUrl}/event/shared-concert/`,
      title: { rendered: 'Shared Concert' },
      content: { rendered: '<p>Two &#038; more</p>\n', protected: false },
      tags: [event.tags[0].id],
      tribe_events_cat: [event.categories[0].id],
      start_date: '2031-05-04 19:00:00',
      start_date_utc: '2031-05-04 16:00:00',
      end_date_utc: '2031-05-04 18:30:00',
      timezone: 'Europe/Vilnius',
      duration: '9000',
      multiday: false,
      is_past: false,
      all_day: false,
      cost: '$12',
      organizer_names: ['Shared Org'],
      schedule_details: '<span class="tribe-event-date-start">May 4, 2031 @ 7:00 pm</span> - <span class="tribe-event-time">9:30 pm</span>',
      short_schedule_details: '<span class="tribe-event-date-start">7:00 pm</span> - <span class="tribe-event-time">9:30 pm</span>',
    });
    expect(e.dates.start).toEqual({ date: '2031-05-04 19:00:00.000000', timezone_type: 3, timezone: 'Europe/Vilnius' });
    expect(e.dates.start_utc).toEqual({ date: '2031-05-04 16:00:00.000000', timezone_type: 3, timezone: 'UTC' });
    expect(e.class_list).toEqual([
      `post-${event.id}`,
      'tribe_events',
      'type-tribe_events',
      'status-publish',
      'hentry',
      'tag-shared-tag',
      'tribe_events_cat-shared-music',
      'cat_shared-music',
    ]);
    expect(Object.keys(e.venues[0])).toEqual(VENUE_KEYS);
    expect(e.venues[0]).toMatchObject({
      id: venue.id,
      city: 'Vilnius',
      state_province: 'VL',
      directions_link: 'https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=Vilnius+VL+Lithuania',
    });
    expect(Object.keys(e.organizers[0])).toEqual(ORGANIZER_KEYS);
    expect(e.organizers[0]).toMatchObject({ id: organizer.id, email: 'org@example.com', title: { rendered: 'Shared Org' } });
    expect((await tv('GET', `/venues/${venue.id}`)).body).toEqual(e.venues[0]);
    expect((await tv('GET', `/organizers/${organizer.id}`)).body).toEqual(e.organizers[0]);
    // The same answer at the site's own URLs and under another language (ids work across languages).
    for (const path of [`/wp-json/tec/v1/events/${event.id}`, `/?rest_route=/tec/v1/events/${event.id}`, `/lt/tec/v1/events/${event.id}`]) {
      const other = await gw.api('GET', gw.abs(path), { headers: ACK });
      expect(other.status, path).toBe(200);
      expect(other.body.id, path).toBe(event.id);
      expect(other.body.start_date, path).toBe(e.start_date);
    }
    // A record of another kind is no record of this route.
    expect((await tv('GET', `/venues/${event.id}`)).body).toEqual(FORBIDDEN(401));
  });

  it('writes through v1’s rules, once per Idempotency-Key, and v1 reads what it wrote', async () => {
    const venue = (await tv('POST', '/venues', { token: 'editor', body: { title: 'Written Hall', city: 'Kaunas', state_province: 'KA', website: 'https://hall.example' } })).body;
    expect(Object.keys(venue)).toEqual(VENUE_KEYS);
    const v1Venue = (await gw.api('GET', `/venues/${venue.id}`)).body;
    expect([v1Venue.venue, v1Venue.city, v1Venue.stateprovince, v1Venue.website]).toEqual(['Written Hall', 'Kaunas', 'KA', 'https://hall.example']);
    const body = { title: 'Written Show', content: 'Made here', start_date: '2031-06-01 10:00:00', end_date: '2031-06-02 12:00:00', venues: [venue.id], featured: true };
    const first = await tv('POST', '/events', { token: 'editor', body, headers: { 'idempotency-key': 'tec-v1-once' } });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ title: { rendered: 'Written Show' }, multiday: 2, featured: true, venues: [{ id: venue.id }] });
    const again = await tv('POST', '/events', { token: 'editor', body, headers: { 'idempotency-key': 'tec-v1-once' } });
    expect([again.status, again.body.id]).toEqual([201, first.body.id]);
    const id = first.body.id;
    const v1 = (await gw.api('GET', `/events/${id}`)).body;
    expect([v1.title, v1.description, v1.featured, v1.venue.id]).toEqual(['Written Show', '<p>Made here</p>', true, venue.id]);
    // An update is partial; v1 reads it.
    const patched = await tv('PATCH', `/events/${id}`, { token: 'editor', body: { title: 'Renamed Show', cost: '9' } });
    expect([patched.status, patched.body.title.rendered, patched.body.cost, patched.body.venues[0].id]).toEqual([200, 'Renamed Show', '$9', venue.id]);
    expect((await gw.api('GET', `/events/${id}`)).body.title).toBe('Renamed Show');
    // v1's checks hold: an end before the start is refused, and nothing changes.
    const backwards = await tv('PUT', `/events/${id}`, { token: 'editor', body: { end_date: '2031-05-01 10:00:00' } });
    expect(backwards.status).toBe(400);
    expect((await tv('GET', `/events/${id}`)).body.end_date).toBe('2031-06-02 12:00:00');
    // A record of another kind, then TEC's delete answers.
    expect(await tv('PUT', `/events/${venue.id}`, { token: 'editor', body: { title: 'x' } }).then((r) => [r.status, r.body])).toEqual([
      404,
      { error: 'The entity could not be updated.' },
    ]);
    expect(await tv('DELETE', `/venues/${id}`, { token: 'editor' }).then((r) => [r.status, r.body])).toEqual([404, { error: 'The entity could not be deleted.' }]);
    expect(await tv('DELETE', `/events/${id}`, { token: 'editor' }).then((r) => [r.status, r.body])).toEqual([200, []]);
    // A trashed record is not found here, even by an editor (TEC reads status `any`, without the trash);
    // v1 says it is no longer available.
    expect(await tv('GET', `/events/${id}`, { token: 'editor' }).then((r) => [r.status, r.body])).toEqual([404, { error: 'The entity could not be read.' }]);
    expect((await gw.api('GET', `/events/${id}`, { token: 'editor' })).body.code).toBe('event-no-longer-available');
    expect(await tv('DELETE', `/events/${id}`, { token: 'editor' }).then((r) => [r.status, r.body])).toEqual([410, { error: 'The entity has already been trashed.' }]);
    expect(await tv('DELETE', `/events/${id}?force=true`, { token: 'editor' }).then((r) => [r.status, r.body])).toEqual([200, []]);
    expect((await gw.api('GET', `/events/${id}`, { token: 'editor' })).status).toBe(404);
  });

  it('lets a contributor write drafts only, and shows them to no anonymous list', async () => {
    const mine = await tv('POST', '/organizers', { token: 'contributor', body: { title: 'Contributed Org', status: 'publish' } });
    expect(mine.status, mine.text).toBe(201);
    expect(mine.body.status).not.toBe('publish');
    expect((await tv('GET', `/organizers/${mine.body.id}`)).body).toEqual(FORBIDDEN(401));
    expect((await tv('GET', '/organizers')).body.map((o: Json) => o.id)).not.toContain(mine.body.id);
    expect((await tv('GET', '/organizers?status=draft,pending', { token: 'editor' })).body.map((o: Json) => o.id)).toContain(mine.body.id);
  });
});

describe('tec/v1: lists', () => {
  it('pages with WordPress’s headers and TEC’s links, filters by links and terms, and has no date window', async () => {
    const venue = await createAsEditor(gw, '/venues', { venue: 'Paged Hall' });
    const made: Json[] = [];
    for (const [i, start] of ['2019-01-05', '2031-01-05', '2031-02-05'].entries()) {
      made.push(
        await createAsEditor(gw, '/events', {
          title: `Paged ${i}`,
          start_date: `${start} 10:00:00`,
          end_date: `${start} 11:00:00`,
          venue: venue.id,
          categories: i ? ['Paged'] : [],
        }),
      );
    }
    const page = await tv('GET', `/events?venue=${venue.id}&per_page=2`);
    expect(page.body.map((e: Json) => e.id)).toEqual([made[0]!.id, made[1]!.id]);
    expect([page.headers.get('x-wp-total'), page.headers.get('x-wp-totalpages')]).toEqual(['3', '2']);
    expect(page.headers.get('link')).toContain(`<${config().siteUrl}/en/tec/v1/events?venue%5B0%5D=${venue.id}&per_page=2&page=2>; rel="next"`);
    const second = await tv('GET', `/events?venue=${venue.id}&per_page=2&page=2`);
    expect(second.body.map((e: Json) => e.id)).toEqual([made[2]!.id]);
    expect(second.headers.get('link')).toContain('rel="prev"');
    const past = await tv('GET', `/events?venue=${venue.id}&per_page=2&page=3`);
    expect([past.status, past.body]).toEqual([404, { code: 'tec_rest_organizers_page_not_found', message: 'The requested page was not found.' }]);
    // Filters by category (TEC 6.17 ignores this one), by date.
    const category = made[1]!.categories[0].id;
    expect((await tv('GET', `/events?categories=${category}`)).body.map((e: Json) => e.id)).toEqual([made[1]!.id, made[2]!.id]);
    expect((await tv('GET', `/events?venue=${venue.id}&starts_after=2031-01-10 00:00:00`)).body.map((e: Json) => e.id)).toEqual([made[2]!.id]);
    // One side of a range alone leaves the other open: no default window (two years ahead, from yesterday) fills it.
    expect((await tv('GET', `/events?venue=${venue.id}&start_date=2020-01-01`)).body.map((e: Json) => e.id)).toEqual([made[1]!.id, made[2]!.id]);
    expect((await tv('GET', `/events?venue=${venue.id}&end_date=2025-01-01`)).body.map((e: Json) => e.id)).toEqual([made[0]!.id]);
    // TEC's other orders: every event of the list read, ordered, and the page cut from them, with the same headers.
    const ids = async (q: string) => (await tv('GET', `/events?venue=${venue.id}&${q}`)).body.map((e: Json) => e.id);
    expect(await ids('order=DESC')).toEqual([made[2]!.id, made[1]!.id, made[0]!.id]);
    expect(await ids('orderby=title&order=DESC&search=Paged')).toEqual([made[2]!.id, made[1]!.id, made[0]!.id]);
    expect(await ids('orderby=menu_order&order=DESC&starts_after=2020-01-01 00:00:00')).toEqual([made[1]!.id, made[2]!.id]);
    // By modification time: the event changed a second later comes last (ties would go by id).
    await new Promise((r) => setTimeout(r, 1100));
    expect((await gw.api('POST', `/events/${made[0]!.id}`, { body: { excerpt: 'Changed' }, token: 'editor' })).status).toBe(200);
    expect(await ids('orderby=modified')).toEqual([made[1]!.id, made[2]!.id, made[0]!.id]);
    const ordered = await tv('GET', `/events?venue=${venue.id}&orderby=title&order=DESC&per_page=2&page=2`);
    expect(ordered.body.map((e: Json) => e.id)).toEqual([made[0]!.id]);
    expect([ordered.headers.get('x-wp-total'), ordered.headers.get('x-wp-totalpages')]).toEqual(['3', '2']);
    expect((await tv('GET', `/events?venue=${venue.id}&orderby=title&page=3&per_page=2`)).status).toBe(404);
    // TEC's refusals, in its words.
    const bad = await tv('GET', '/events?orderby=soon');
    expect([bad.status, bad.body]).toEqual([
      400,
      { code: 'rest_invalid_param', message: 'Invalid parameter(s): orderby', data: { status: 400, params: { orderby: 'Invalid parameter.' }, details: [] } },
    ]);
    const typed = await tv('GET', '/events?per_page=0&ends_after=someday');
    expect(typed.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): per_page, ends_after',
      data: {
        status: 400,
        params: { per_page: 'Argument `{per_page}` must be a positive integer.', ends_after: 'Argument `{ends_after}` must be a date-time.' },
        details: {
          per_page: {
            code: 'tec_rest_invalid_positive_integer_argument',
            message: 'Argument `{per_page}` must be a positive integer.',
            data: { status: 400, argument: 'per_page', details: 'The argument `{per_page}` is not a positive integer.' },
          },
          ends_after: {
            code: 'tec_rest_invalid_date_time_argument',
            message: 'Argument `{ends_after}` must be a date-time.',
            data: { status: 400, argument: 'ends_after', details: 'We cannot parse the argument `{ends_after}` as a date-time.' },
          },
        },
      },
    });
  });
});

describe('tec/v1: its index and its document', () => {
  it('lists its routes as TEC does, and documents them in a valid OpenAPI 3.0 document with this API as server', async () => {
    const index = (await tv('GET', '', { ack: false })).body;
    expect(index.namespace).toBe('tec/v1');
    expect(Object.keys(index.routes)).toEqual([
      '/tec/v1',
      '/tec/v1/events',
      '/tec/v1/events/(?P<id>\\d+)',
      '/tec/v1/organizers',
      '/tec/v1/organizers/(?P<id>\\d+)',
      '/tec/v1/venues',
      '/tec/v1/venues/(?P<id>\\d+)',
      '/tec/v1/docs',
    ]);
    expect(index.routes['/tec/v1/events/(?P<id>\\d+)'].endpoints.map((e: Json) => e.methods)).toEqual([['GET'], ['PUT', 'PATCH'], ['DELETE']]);
    expect((await gw.api('GET', gw.abs('/wp-json/'))).body.namespaces).toContain('tec/v1');
    const doc = (await gw.api('GET', gw.abs('/wp-json/tec/v1/docs'))).body;
    expect(doc.servers).toEqual([{ url: `${config().siteUrl}/wp-json/tec/v1` }]);
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.valid, JSON.stringify(result.errors)).toBe(true);
    expect(Object.keys(doc.paths)).toEqual(['/events', '/events/{id}', '/organizers', '/organizers/{id}', '/venues', '/venues/{id}', '/docs']);
    expect(doc.paths['/events/{id}'].put.operationId).toBe('updateEvent');
    expect(Object.keys(doc.components.schemas.Event.properties)).toEqual(EVENT_KEYS);
  });
});
