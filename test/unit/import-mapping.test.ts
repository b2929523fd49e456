// The importer's mapping: a site's JSON (wp/v2, context=edit) and an export's entries become the
// same site records, and the records become the requests the writer sends.
import { describe, expect, it } from 'vitest';
import { mapPost, mapTerm, modifiedAfter, mapUser, siteTimezone } from '#lib/import/live-source.js';
import { agreeingZone } from '#lib/import/run.js';
import { fingerprint, parentsFirst, type SitePost } from '#lib/import/records.js';
import { postBody, termBody } from '#lib/import/writer.js';
import { wxrRecords } from '#lib/import/wxr-source.js';
import { emptyWxrPost } from '#lib/import/wxr-reader.js';
import type { WxrEntry, WxrPost } from '#lib/import/wxr-types.js';
import { eventMeta, jsonMeta, rowMeta, venueFields } from '#lib/import/tec-meta.js';

const wpEvent = {
  id: 155,
  date: '2026-11-27T01:37:34',
  date_gmt: '2026-11-27T00:37:34',
  modified: '2026-11-28T10:00:00',
  modified_gmt: '2026-11-28T09:00:00',
  password: 'pw',
  slug: 'concert',
  status: 'publish',
  title: { raw: 'Concert &amp; more', rendered: 'Concert &#038; more' },
  content: { raw: '<p>Hello</p>', rendered: '<p>Hello</p>\n' },
  excerpt: { raw: 'Short', rendered: '<p>Short</p>\n' },
  author: 3,
  featured_media: 9,
  meta: {
    _EventAllDay: false,
    _EventTimezone: 'Europe/Vilnius',
    _EventStartDate: '2027-10-31 03:30:00',
    _EventEndDate: '2027-10-31 03:45:00',
    _EventStartDateUTC: '2027-10-31 01:30:00',
    _EventEndDateUTC: '2027-10-31 01:45:00',
    _EventShowMap: true,
    _EventShowMapLink: false,
    _EventURL: '',
    _EventCost: '15',
    _EventOrganizerID: [154, 156],
    _EventVenueID: [153],
  },
  tags: [60],
  tribe_events_cat: [7, 8],
};

describe('live site JSON to site records', () => {
  it('keeps the stored text, the dates in both zones, the links and the UTC times of an event', () => {
    const r = mapPost('event', wpEvent, 'https://img.example/a.jpg', {
      featured: true,
      sticky: false,
      hide_from_listings: true,
      show_map: true,
      show_map_link: true,
      timezone_abbr: 'EET',
      websiteUnset: true,
    });
    expect(r).toMatchObject({
      id: 155,
      slug: 'concert',
      author: 3,
      date: '2026-11-27 01:37:34',
      date_utc: '2026-11-27 00:37:34',
      modified_utc: '2026-11-28 09:00:00',
      password: 'pw',
    });
    expect(r.utc).toEqual({ start: '2027-10-31 01:30:00', end: '2027-10-31 01:45:00' });
    expect(r.fields).toMatchObject({
      title: 'Concert &amp; more',
      description: '<p>Hello</p>',
      excerpt: 'Short',
      venue: [153],
      organizer: [154, 156],
      categories: [7, 8],
      tags: [60],
    });
    expect(r.fields).toMatchObject({ featured: true, hide_from_listings: true, image: 'https://img.example/a.jpg', timezone: 'Europe/Vilnius' });
    // Never set on the site: the event keeps showing its own link as its website.
    expect(r.fields).not.toHaveProperty('website');
  });

  it('takes a draft never given a GMT date as of its site-zone date', () => {
    const r = mapPost('venue', { ...wpEvent, date_gmt: null, status: 'draft', meta: { _VenueCity: 'Vilnius', _VenueLat: '54.68', _VenueLng: '' } }, '');
    expect(r.date_utc).toBe('2026-11-27 01:37:34');
    expect(r.fields).toMatchObject({ venue: 'Concert &amp; more', city: 'Vilnius', geo_lat: 54.68 });
    expect(r.fields).not.toHaveProperty('geo_lng');
  });

  it("reads through TEC's answer what wp/v2 fills with defaults, and without it takes an empty website as never written", () => {
    // wp/v2 shows every registered row, a map flag never written as false; TEC shows it true.
    const venueMeta = { _VenueCity: 'Fresno', _VenueShowMap: false, _VenueShowMapLink: false };
    expect(mapPost('venue', { ...wpEvent, meta: venueMeta }, '', { show_map: true, show_map_link: true }).fields).toMatchObject({ show_map: true, show_map_link: true });
    expect(mapPost('venue', { ...wpEvent, meta: venueMeta }, '', { show_map: false, show_map_link: true }).fields).toMatchObject({ show_map: false, show_map_link: true });
    // A trashed event, which TEC does not show: its '' website is no row, its zone abbreviation left to compute.
    const trashed = mapPost('event', { ...wpEvent, status: 'trash' }, '');
    expect(trashed.fields).not.toHaveProperty('website');
    expect(trashed.fields).not.toHaveProperty('timezone_abbr');
    expect(trashed.fields).toMatchObject({ sticky: false });
    expect(mapPost('event', { ...wpEvent, meta: { ...wpEvent.meta, _EventURL: 'https://ev.example' } }, '').fields).toMatchObject({ website: 'https://ev.example' });
    expect(mapPost('event', wpEvent, '', { sticky: true }).fields).toMatchObject({ sticky: true });
  });

  it('maps users by login with their highest role, and terms with their parent', () => {
    expect(mapUser({ id: 4, username: 'ana', name: 'Ana', email: 'a@x', roles: ['subscriber', 'editor'] })).toEqual({
      kind: 'user',
      id: 4,
      login: 'ana',
      name: 'Ana',
      email: 'a@x',
      role: 'editor',
    });
    expect(mapTerm({ id: 8, name: 'Jazz', slug: 'jazz', description: '', parent: 7 }, 'category')).toMatchObject({ parent: 7 });
    expect(mapTerm({ id: 9, name: 'X', slug: 'x', parent: 7 }, 'tag')).toMatchObject({ parent: 0, description: '' });
  });
});

describe('site records to requests', () => {
  const event = mapPost('event', wpEvent, '', {
    featured: false,
    sticky: true,
    hide_from_listings: false,
    show_map: false,
    show_map_link: true,
    timezone_abbr: 'EET',
    // TEC's answer shows a website of its own: the row was written.
    website: 'https://ev.example',
    url: 'https://site.example/event/concert/',
  });

  it('sends the fields, the author and the UTC publication date, leaving out empty texts', () => {
    const body = postBody({ ...event, fields: { ...event.fields, excerpt: '' } }, true);
    expect(body).toMatchObject({
      title: 'Concert &amp; more',
      author: 3,
      date_utc: '2026-11-27 00:37:34',
      status: 'publish',
      slug: 'concert',
      password: 'pw',
      sticky: true,
      website: '',
    });
    expect(body).not.toHaveProperty('excerpt');
    expect(body).not.toHaveProperty('image');
  });

  it('makes a trashed record as a draft under its slug without the trash mark, and updates it without a status', () => {
    const trashed: SitePost = { ...event, status: 'trash', slug: 'concert__trashed' };
    expect(postBody(trashed, true)).toMatchObject({ status: 'draft', slug: 'concert' });
    // Trashed before it had a slug: `__trashed` alone on the site, no slug sent.
    expect(postBody({ ...trashed, slug: '__trashed' }, true)).not.toHaveProperty('slug');
    const update = postBody(trashed, false);
    expect(update).not.toHaveProperty('status');
    expect(update).not.toHaveProperty('slug');
  });

  it('sends a category with its parent, a tag without one', () => {
    expect(termBody({ kind: 'category', id: 8, name: 'Jazz', slug: 'jazz', description: '', parent: 7 })).toEqual({ name: 'Jazz', slug: 'jazz', parent: 7 });
    expect(termBody({ kind: 'tag', id: 9, name: 'X', slug: 'x', description: 'd', parent: 0 })).toEqual({ name: 'X', slug: 'x', description: 'd' });
  });

  it('fingerprints a record whatever the order of its fields, and tells a change', () => {
    const reordered = { ...event, fields: Object.fromEntries(Object.entries(event.fields).reverse()) };
    expect(fingerprint(reordered)).toBe(fingerprint(event));
    expect(fingerprint({ ...event, fields: { ...event.fields, cost: '16' } })).not.toBe(fingerprint(event));
  });

  it('orders categories parents first, whatever the order listed', () => {
    const t = (id: number, parent: number) => ({ id, parent });
    expect(parentsFirst([t(3, 2), t(2, 1), t(1, 0), t(4, 99)]).map((x) => x.id)).toEqual([1, 4, 2, 3]);
  });
});

describe('export entries to site records', () => {
  const post = (p: Partial<WxrPost>): WxrPost => ({
    kind: 'post',
    id: 0,
    type: 'tribe_events',
    title: '',
    link: '',
    guid: '',
    creator: 'ana',
    content: '',
    excerpt: '',
    date: '2027-01-01 10:00:00',
    dateGmt: '2027-01-01 08:00:00',
    modified: '2027-01-02 10:00:00',
    modifiedGmt: '2027-01-02 08:00:00',
    slug: '',
    status: 'publish',
    parent: 0,
    menuOrder: 0,
    password: '',
    sticky: false,
    terms: [],
    meta: [],
    ...p,
  });
  async function* entries(list: WxrEntry[]) {
    yield* list;
  }

  it('resolves parents by slug, authors by login, images by attachment and repeated organizer rows', async () => {
    const records = await wxrRecords(
      entries([
        { kind: 'author', id: 5, login: 'ana', email: 'a@x', displayName: 'Ana', firstName: '', lastName: '' },
        { kind: 'term', id: 11, taxonomy: 'tribe_events_cat', slug: 'jazz', name: 'Jazz', description: '', parentSlug: 'music' },
        { kind: 'term', id: 10, taxonomy: 'tribe_events_cat', slug: 'music', name: 'Music', description: 'All', parentSlug: '' },
        { kind: 'term', id: 12, taxonomy: 'post_tag', slug: 'outdoor', name: 'Outdoor', description: '', parentSlug: '' },
        { kind: 'term', id: 13, taxonomy: 'category', slug: 'blog', name: 'Blog', description: '', parentSlug: '' },
        post({
          id: 40,
          title: 'Gig',
          slug: 'gig',
          menuOrder: -1,
          password: 'pw',
          terms: [
            { taxonomy: 'tribe_events_cat', slug: 'jazz', name: 'Jazz' },
            { taxonomy: 'post_tag', slug: 'outdoor', name: 'Outdoor' },
          ],
          meta: [
            ['_EventStartDate', '2027-03-28 01:30:00'],
            ['_EventEndDate', '2027-03-28 04:30:00'],
            ['_EventStartDateUTC', '2027-03-27 23:30:00'],
            ['_EventEndDateUTC', '2027-03-28 01:30:00'],
            ['_EventTimezone', 'Europe/Vilnius'],
            ['_EventAllDay', 'yes'],
            ['_EventVenueID', '30'],
            ['_EventOrganizerID', '31'],
            ['_EventOrganizerID', '32'],
            ['_thumbnail_id', '50'],
            ['_tribe_featured', '1'],
            ['_EventHideFromUpcoming', 'yes'],
          ],
        }),
        post({ id: 50, type: 'attachment', attachmentUrl: 'https://site.example/wp-content/uploads/a.jpg' }),
        post({ id: 51, type: 'post' }),
      ]),
    );
    expect(records.map((r) => `${r.kind}:${r.id}`)).toEqual(['user:5', 'category:11', 'category:10', 'tag:12', 'event:40']);
    expect(records.find((r) => r.id === 11)).toMatchObject({ parent: 10 });
    const e = records.find((r) => r.kind === 'event') as SitePost;
    expect(e).toMatchObject({ author: 5, password: 'pw', date_utc: '2027-01-01 08:00:00', utc: { start: '2027-03-27 23:30:00', end: '2027-03-28 01:30:00' } });
    expect(e.fields).toMatchObject({ all_day: true, venue: [30], organizer: [31, 32], categories: [11], tags: [12], sticky: true, featured: true, hide_from_listings: true });
    expect(e.fields.image).toBe('https://site.example/wp-content/uploads/a.jpg');
    expect(e.fields).not.toHaveProperty('website');
  });
});

describe("TEC's meta, one mapping for both readers", () => {
  const rows: [string, string][] = [
    ['_EventStartDate', '2027-06-01 00:00:00'],
    ['_EventEndDate', '2027-06-01 23:59:59'],
    ['_EventStartDateUTC', '2027-05-31 20:30:00'],
    ['_EventEndDateUTC', '2027-06-01 20:29:59'],
    ['_EventAllDay', 'yes'],
    ['_EventTimezone', 'UTC+3:30'],
    ['_EventCost', '500'],
    ['_EventCurrencySymbol', '₹'],
    ['_EventCurrencyCode', 'INR'],
    ['_EventCurrencyPosition', 'postfix'],
    ['_EventVenueID', '0'],
    ['_EventOrganizerID', '12'],
    ['_EventOrganizerID', '12'],
    ['_EventOrganizerID', '13'],
  ];

  it('reads an export row and the same wp/v2 meta alike', () => {
    const fromRows = eventMeta(rowMeta(rows));
    const json: Record<string, unknown> = {};
    for (const [k, v] of rows) json[k] = k === '_EventOrganizerID' ? [...((json[k] as string[]) ?? []), Number(v)] : k === '_EventAllDay' ? true : v;
    expect(eventMeta(jsonMeta(json))).toEqual({ ...fromRows, fields: { ...fromRows.fields, all_day: true } });
    expect(fromRows.fields).toMatchObject({ all_day: true, cost: '500', currency: { symbol: '₹', code: 'INR', position: 'postfix' }, venue: [], organizer: [12, 13] });
    expect(fromRows.utc).toEqual({ start: '2027-05-31 20:30:00', end: '2027-06-01 20:29:59' });
  });

  it("defaults what was never written as TEC shows it: map flags on, the website the event's link, no currency", () => {
    const none = eventMeta(rowMeta([['_EventStartDate', '2027-06-01 10:00:00']])).fields;
    expect(none).toMatchObject({ show_map: true, show_map_link: true, featured: false, hide_from_listings: false });
    expect(none).not.toHaveProperty('website');
    expect(none).not.toHaveProperty('currency');
    const off = eventMeta(
      rowMeta([
        ['_EventShowMap', ''],
        ['_EventShowMapLink', '0'],
        ['_EventURL', ''],
      ]),
    ).fields;
    expect(off).toMatchObject({ show_map: false, show_map_link: false, website: '' });
    expect(venueFields(rowMeta([]))).toMatchObject({ show_map: true, show_map_link: true, stateprovince: '' });
    // TEC's hidden flag is 'yes' alone; featured is 1.
    expect(
      eventMeta(
        rowMeta([
          ['_EventHideFromUpcoming', '1'],
          ['_tribe_featured', 'yes'],
        ]),
      ).fields,
    ).toMatchObject({ hide_from_listings: false, featured: false });
  });

  it('keeps a venue state-or-province as stored, empty included', () => {
    expect(
      venueFields(
        rowMeta([
          ['_VenueState', 'CA'],
          ['_VenueCountry', 'United States'],
        ]),
      ),
    ).toMatchObject({ state: 'CA', stateprovince: '' });
  });
});

describe('export entries a real tool writes', () => {
  async function* entries(list: WxrEntry[]) {
    yield* list;
  }
  const item = (p: Partial<WxrPost>): WxrPost => ({ ...emptyWxrPost(), type: 'tribe_events', title: 'T', slug: 't', status: 'publish', ...p });

  it('names terms the file does not define by slug, once each, with the name the item gives', async () => {
    const records = await wxrRecords(
      entries([
        { kind: 'term', id: 4, taxonomy: 'post_tag', slug: 'kids', name: 'Kids', description: '', parentSlug: '' },
        item({
          id: 20,
          terms: [
            { taxonomy: 'tribe_events_cat', slug: 'jazz', name: 'Jazz &amp; Blues' },
            { taxonomy: 'post_tag', slug: 'kids', name: 'Kids' },
            { taxonomy: 'post_tag', slug: 'free', name: 'Free' },
          ],
        }),
        item({ id: 21, terms: [{ taxonomy: 'tribe_events_cat', slug: 'jazz', name: 'Jazz &amp; Blues' }] }),
      ]),
    );
    expect(records.filter((r) => r.kind === 'category' || r.kind === 'tag')).toEqual([
      { kind: 'tag', id: 4, name: 'Kids', slug: 'kids', description: '', parent: 0 },
      { kind: 'category', id: 0, name: 'Jazz &amp; Blues', slug: 'jazz', description: '', parent: 0 },
      { kind: 'tag', id: 0, name: 'Free', slug: 'free', description: '', parent: 0 },
    ]);
    const e = records.find((r) => r.id === 20) as SitePost;
    expect(e.fields).toMatchObject({ categories: ['jazz'], tags: [4, 'free'] });
  });

  it('gives a post without an author (post_author 0) none, for the writer to fill', async () => {
    const [e] = (await wxrRecords(entries([item({ id: 30, type: 'tribe_venue', creator: '' })]))) as SitePost[];
    expect(e!.author).toBe(0);
    expect(postBody(e!, true)).not.toHaveProperty('author');
    expect(postBody(e!, true, 5)).toMatchObject({ author: 5 });
  });
});

describe('modifiedAfter', () => {
  it('bounds by the whole second before, so that a post modified in the same second as the run start is read', () => {
    // WordPress compares post_modified > the bound cut to its second.
    expect(modifiedAfter('2026-11-27T03:50:12.345Z')).toBe('2026-11-27T03:50:11Z');
    expect(modifiedAfter('2026-11-27T03:50:12Z')).toBe('2026-11-27T03:50:11Z');
    expect(modifiedAfter('2026-11-27T05:50:12+02:00')).toBe('2026-11-27T03:50:11Z');
  });
});

describe('the site time zone', () => {
  it('is the REST index’s zone name, or WordPress’s name of its manual offset', () => {
    expect(siteTimezone({ timezone_string: 'Europe/Vilnius', gmt_offset: 2 })).toBe('Europe/Vilnius');
    expect(siteTimezone({ timezone_string: '', gmt_offset: 5.5 })).toBe('UTC+5.5');
    expect(siteTimezone({ timezone_string: '', gmt_offset: '-3.5' })).toBe('UTC-3.5');
    expect(siteTimezone({ timezone_string: '', gmt_offset: 0 })).toBe('UTC+0');
    expect(siteTimezone({})).toBe('UTC+0');
  });

  it('is the one imported with, unless SITE_TIMEZONE names another', () => {
    expect(agreeingZone(undefined, 'Europe/Vilnius')).toBe('Europe/Vilnius');
    expect(agreeingZone('Europe/Vilnius', 'Europe/Vilnius')).toBe('Europe/Vilnius');
    expect(agreeingZone('UTC', 'UTC+0')).toBe('UTC+0');
    expect(agreeingZone('UTC+5:30', 'UTC+5.5')).toBe('UTC+5.5');
    expect(() => agreeingZone('Europe/Vilnius', 'UTC+0')).toThrow("SITE_TIMEZONE is Europe/Vilnius, but the site's time zone is UTC+0");
    expect(() => agreeingZone('UTC+2', 'Europe/Vilnius')).toThrow(/but the site's time zone is Europe\/Vilnius/);
  });
});
