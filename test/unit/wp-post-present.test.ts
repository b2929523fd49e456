// WordPress's post shape (lib/present/wp-post.ts) for events, venues and organizers: the keys and
// their order per context, TEC's meta keys with the record's values, the password's effect,
// class_list and the links, as the live WordPress 6.8 with TEC 6.17 shows them.
import { beforeAll, describe, expect, it } from 'vitest';
import { config, resetConfig } from '#lib/runtime/config.js';
import { presentWpPost, wpMeta } from '#lib/present/wp-post.js';
import type { EventItem, OrganizerItem, TermItem, VenueItem } from '#lib/store/items.js';

const stamp = { date: '2026-11-22 03:55:45', date_utc: '2026-11-22 02:55:45', modified: '2026-11-23 03:00:00', modified_utc: '2026-11-23 02:00:00' };
const head = { sk: 'POST', lang: 'en' as const, status: 'publish', author: 1, ...stamp, image: '', version: 1 };

const venue: VenueItem = {
  ...head,
  pk: 'POST#5',
  id: 5,
  kind: 'venue',
  slug: 'hall',
  title: 'Hall',
  description: '',
  excerpt: '',
  website: 'https://hall.example',
  address: '1 Main St',
  city: 'Springfield',
  country: 'US',
  province: '',
  state: 'IL',
  zip: '62701',
  phone: '555-1234',
  stateprovince: 'IL',
  showMap: true,
  showMapLink: true,
  geoLat: 39.78,
  geoLng: -89.65,
};
const organizer: OrganizerItem = {
  ...head,
  pk: 'POST#6',
  id: 6,
  kind: 'organizer',
  slug: 'org',
  title: 'Org',
  description: '',
  excerpt: '',
  website: 'https://org.example',
  phone: '555-9',
  email: 'org@example.com',
};
const event: EventItem = {
  ...head,
  pk: 'POST#7',
  id: 7,
  kind: 'event',
  slug: 'concert',
  title: 'Concert',
  description: '<p>Hello <b>world</b></p>',
  excerpt: '',
  website: 'https://ev.example',
  start: '2027-06-01 19:00:00',
  end: '2027-06-01 21:00:00',
  utcStart: '2027-06-01 17:00:00',
  utcEnd: '2027-06-01 19:00:00',
  timezone: 'Europe/Paris',
  allDay: false,
  cost: { values: ['15'], symbol: '$', position: 'prefix', code: 'USD' },
  showMap: true,
  showMapLink: false,
  sticky: false,
  featured: false,
  venues: [5],
  organizers: [6],
  categories: [2],
  tags: [3],
  parent: 0,
};
const terms = new Map<number, TermItem>([
  [2, { pk: 'TERM#2', sk: 'TERM', id: 2, taxonomy: 'category', lang: 'en', name: 'Music', slug: 'music', description: '', parent: 0, count: 1, version: 1 }],
  [3, { pk: 'TERM#3', sk: 'TERM', id: 3, taxonomy: 'tag', lang: 'en', name: 'Loud', slug: 'loud', description: '', parent: 0, count: 1, version: 1 }],
]);

beforeAll(() => resetConfig());

describe('presentWpPost', () => {
  it('shows an event in the view context with the keys, dates, rendering and links of WordPress', () => {
    const e = presentWpPost(event, { context: 'view', allow: ['GET'], unlocked: true, terms });
    expect(Object.keys(e)).toEqual([
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
      'tags',
      'tribe_events_cat',
      'class_list',
      '_links',
    ]);
    const site = config().siteUrl;
    expect(e).toMatchObject({
      date: '2026-11-22T03:55:45',
      date_gmt: '2026-11-22T02:55:45',
      modified_gmt: '2026-11-23T02:00:00',
      guid: { rendered: `${site}/event/concert/` },
      link: `${site}/event/concert/`,
      title: { rendered: 'Concert' },
      content: { rendered: '<p>Hello <b>world</b></p>\n', protected: false },
      // No excerpt written: the content's words, as wp_trim_excerpt makes it.
      excerpt: { rendered: '<p>Hello world</p>\n', protected: false },
      tags: [3],
      tribe_events_cat: [2],
      class_list: ['post-7', 'tribe_events', 'type-tribe_events', 'status-publish', 'hentry', 'tag-loud', 'tribe_events_cat-music', 'cat_music'],
    });
    expect(Object.keys(e._links as object)).toEqual(['self', 'collection', 'about', 'author', 'version-history', 'wp:attachment', 'wp:term', 'curies']);
  });

  it('adds the raw fields, password, permalink template and the action links in the edit context', () => {
    const e = presentWpPost(
      { ...event, password: 'pw' },
      { context: 'edit', allow: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], actions: ['publish', 'assign-tags'], unlocked: true, terms },
    );
    expect(e.password).toBe('pw');
    expect(e.title).toEqual({ raw: 'Concert', rendered: 'Concert' });
    expect(e.content).toEqual({ raw: '<p>Hello <b>world</b></p>', rendered: '<p>Hello <b>world</b></p>\n', protected: true, block_version: 0 });
    expect(e.guid).toEqual({ rendered: e.link, raw: e.link });
    expect(e.permalink_template).toBe(`${config().siteUrl}/event/%pagename%/`);
    expect(e.generated_slug).toBe('concert');
    const links = e._links as Record<string, { href: string }[]>;
    expect(links['wp:action-publish']).toEqual([{ href: `${config().siteUrl}/en/wp/v2/tribe_events/7` }]);
    expect(Object.keys(links).filter((k) => k.startsWith('wp:action-'))).toEqual(['wp:action-publish', 'wp:action-assign-tags']);
  });

  it('empties a locked event’s content and excerpt, and marks it protected', () => {
    const e = presentWpPost({ ...event, password: 'pw', excerpt: 'Short' }, { context: 'view', allow: ['GET'], unlocked: false, terms });
    expect(e.content).toEqual({ rendered: '', protected: true });
    expect(e.excerpt).toEqual({ rendered: '', protected: true });
    // In the edit context too, for a caller who may not edit it: no password, no raw texts.
    const edit = presentWpPost({ ...event, password: 'pw', excerpt: 'Short' }, { context: 'edit', allow: ['GET'], unlocked: false, terms });
    expect(edit.password).toBe('');
    expect(edit.content).toEqual({ raw: '', rendered: '', protected: true, block_version: 0 });
    expect(edit.excerpt).toEqual({ raw: '', rendered: '', protected: true });
    expect((e.class_list as string[]).slice(0, 6)).toEqual(['post-7', 'tribe_events', 'type-tribe_events', 'status-publish', 'post-password-required', 'hentry']);
  });

  it('shows the embed context’s few keys', () => {
    const e = presentWpPost(venue, { context: 'embed', allow: ['GET'], unlocked: true });
    expect(Object.keys(e)).toEqual(['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media', '_links']);
  });

  it('shows venues and organizers without terms, class_list or the event-only links', () => {
    const v = presentWpPost(venue, { context: 'edit', allow: ['GET'], unlocked: true });
    expect(v.type).toBe('tribe_venue');
    expect('tags' in v || 'class_list' in v || 'permalink_template' in v).toBe(false);
    expect(Object.keys(v._links as object)).toEqual(['self', 'collection', 'about', 'author', 'version-history', 'wp:attachment', 'curies']);
    expect(presentWpPost(organizer, { context: 'view', allow: ['GET'], unlocked: true }).type).toBe('tribe_organizer');
  });
});

describe('wpMeta', () => {
  it('sends every TEC key for every type, in the live site’s order, with the record’s own filled', () => {
    const e = wpMeta(event);
    const v = wpMeta(venue);
    const o = wpMeta(organizer);
    expect(Object.keys(v)).toEqual(Object.keys(o));
    expect(Object.keys(e)).toEqual([...Object.keys(v).slice(0, -1), '_tribe_events_status', '_tribe_events_status_reason', 'footnotes']);
    expect(e).toMatchObject({
      _EventAllDay: false,
      _EventTimezone: 'Europe/Paris',
      _EventStartDate: '2027-06-01 19:00:00',
      _EventEndDateUTC: '2027-06-01 19:00:00',
      _EventShowMap: true,
      _EventURL: 'https://ev.example',
      _EventCost: '15',
      _EventCurrencySymbol: '$',
      _EventCurrencyCode: 'USD',
      _EventCurrencyPosition: 'prefix',
      _EventOrganizerID: [6],
      _EventVenueID: [5],
      _VenueAddress: '',
    });
    expect(v).toMatchObject({
      _EventShowMap: true,
      _EventStartDate: '',
      _VenueAddress: '1 Main St',
      _VenueURL: 'https://hall.example',
      _VenueLat: '39.78',
      _VenueLng: '-89.65',
      _VenueShowMap: true,
    });
    expect(o).toMatchObject({ _OrganizerEmail: 'org@example.com', _OrganizerPhone: '555-9', _OrganizerWebsite: 'https://org.example', _EventShowMap: false });
  });
});
