// The presenters against real TEC responses (reference/tec-samples): same keys, same order, same
// values, apart from the deliberate `lang` addition and json_ld's clean text.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { renderTermName } from '#lib/contract/html-filters.js';
import { presentEvent, presentNestedTerm, presentOrganizer, presentTerm, presentVenue } from '#lib/present/present.js';
import type { EventItem, OrganizerItem, TermItem, VenueItem } from '#lib/store/items.js';

const sample = (name: string) => JSON.parse(readFileSync(new URL(`../tec-samples/${name}`, import.meta.url), 'utf8'));

const stamp = { date: '2026-11-22 02:55:45', date_utc: '2026-11-22 02:55:45', modified: '2026-11-22 02:55:45', modified_utc: '2026-11-22 02:55:45' };

const venue: VenueItem = {
  pk: 'POST#5',
  sk: 'POST',
  id: 5,
  kind: 'venue',
  lang: 'en',
  status: 'publish',
  slug: 'anchor-hall',
  author: 1,
  ...stamp,
  title: 'Anchor Hall',
  description: 'Main hall',
  excerpt: '',
  image: '',
  website: 'http://example.com/hall',
  version: 1,
  address: '1 Loop Road',
  city: 'Springfield',
  country: 'United States',
  province: '',
  state: 'IL',
  zip: '62701',
  phone: '+1 555 0100',
  stateprovince: 'IL',
  showMap: true,
  showMapLink: true,
};
const organizer: OrganizerItem = {
  pk: 'POST#6',
  sk: 'POST',
  id: 6,
  kind: 'organizer',
  lang: 'en',
  status: 'publish',
  slug: 'anchor-org',
  author: 1,
  ...stamp,
  title: 'Anchor Org',
  description: 'Organizes things',
  excerpt: '',
  image: '',
  website: 'http://example.com/org',
  version: 1,
  phone: '+1 555 0199',
  email: 'org@example.com',
};
const term = (id: number, taxonomy: 'category' | 'tag', name: string, slug: string, description: string, count: number): TermItem => ({
  pk: `TERM#${id}`,
  sk: 'TERM',
  id,
  taxonomy,
  lang: 'en',
  name,
  slug,
  description,
  parent: 0,
  count,
  version: 1,
});
const concerts = term(2, 'category', 'Concerts', 'concerts', 'Live music', 2);
const outdoor = term(4, 'tag', 'outdoor', 'outdoor', 'Outside', 2);
const event: EventItem = {
  pk: 'POST#7',
  sk: 'POST',
  id: 7,
  kind: 'event',
  lang: 'en',
  status: 'publish',
  slug: 'winter-concert',
  author: 1,
  date: '2026-11-22 02:55:46',
  date_utc: '2026-11-22 02:55:46',
  modified: '2026-11-22 02:55:46',
  modified_utc: '2026-11-22 02:55:46',
  title: 'Winter Concert',
  description: 'An evening concert.',
  excerpt: 'Evening concert',
  image: '',
  website: 'http://example.com/e1',
  version: 1,
  start: '2027-01-15 19:00:00',
  end: '2027-01-15 22:00:00',
  utcStart: '2027-01-15 19:00:00',
  utcEnd: '2027-01-15 22:00:00',
  timezone: 'UTC',
  allDay: false,
  cost: { values: ['25'], symbol: '', position: '', code: '' },
  showMap: false,
  showMapLink: false,
  sticky: false,
  featured: false,
  venues: [5],
  organizers: [6],
  categories: [2],
  tags: [4],
  parent: 0,
};
const linked = {
  venues: new Map([[5, venue]]),
  organizers: new Map([[6, organizer]]),
  terms: new Map([
    [2, concerts],
    [4, outdoor],
  ]),
};

/** Drops our `lang` addition at every depth, and json_ld (compared on its own below). */
function withoutAdditions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAdditions);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'lang' && k !== 'json_ld')
        .map(([k, v]) => [k, withoutAdditions(v)]),
    );
  return value;
}

describe('presenters against TEC samples', () => {
  beforeAll(() => {
    process.env.SITE_URL = 'http://127.0.0.1:8080';
    process.env.API_NAMESPACE = 'tribe';
    resetConfig();
  });
  // TEC's URLs use /wp-json/tribe/events/v1; ours carry the language segment instead.
  const ours = (v: unknown) => JSON.parse(JSON.stringify(withoutAdditions(v)).replaceAll('/en/tribe/events/v1', '/wp-json/tribe/events/v1'));

  it('presents a listed event exactly as TEC does', () => {
    const tecEvent = sample('01-events-list.json').events[0];
    const mine = ours(presentEvent(event, linked));
    expect(Object.keys(mine)).toEqual(Object.keys(tecEvent));
    expect(mine).toEqual(tecEvent);
  });

  it('adds json_ld, and lang last, on single reads', () => {
    const single = presentEvent(event, linked, true);
    const keys = Object.keys(single);
    expect(keys.slice(-3)).toEqual(['custom_fields', 'json_ld', 'lang']);
    expect(Object.keys(sample('03-event-7.json'))).toEqual(keys.filter((k) => k !== 'lang'));
    const ld = single.json_ld as Record<string, Record<string, unknown>>;
    expect(ld).toMatchObject({ '@type': 'Event', name: 'Winter Concert', startDate: '2027-01-15T19:00:00+00:00', description: '&lt;p&gt;Evening concert&lt;/p&gt;\\n' });
    expect(ld.offers!.price).toBe('25');
  });

  it('gives json_ld exactly as TEC does, but for the scrambled organizer e-mail', () => {
    const ld = presentEvent(event, linked, true).json_ld as Record<string, Record<string, unknown>>;
    const tec = sample('03-event-7.json').json_ld;
    // TEC runs the address through antispambot(): random characters as `&#N;` on every request.
    const unscrambled = (tec.organizer.email as string).replace(/&#(\d+);/g, (_m: string, n: string) => String.fromCharCode(Number(n)));
    expect(unscrambled).toBe('org@example.com');
    expect(ld.organizer!.email).toBe('org@example.com');
    expect(JSON.stringify(ld)).toBe(JSON.stringify({ ...tec, organizer: { ...tec.organizer, email: 'org@example.com' } }));
    expect(JSON.stringify(presentVenue(venue, true).json_ld)).toBe(JSON.stringify(sample('09-venue-5.json').json_ld));
  });

  it('renders text fields as WordPress does, keeping the record as saved', () => {
    const title = `Jazz & Blues: "Late" Night at Joe's -- 3x4 ...`;
    const e = { ...event, title, description: 'Line one\nLine two\n\n[gallery]', excerpt: "It's :)" };
    const shown = presentEvent(e, linked);
    expect(shown.title).toBe('Jazz &#038; Blues: &#8220;Late&#8221; Night at Joe&#8217;s &#8212; 3&#215;4 &#8230;');
    expect(shown.description).toBe('<p>Line one<br />\nLine two</p>');
    expect(shown.excerpt).toBe('<p>It&#8217;s \u{1F642}</p>');
    expect(e.title).toBe(title);
    const v = presentVenue({ ...venue, title: "Joe's", address: ' 1 <b>Loop</b>\tRoad ', phone: '%20' });
    expect(v).toMatchObject({ venue: 'Joe&#8217;s', address: '1 Loop Road' });
    expect(v).not.toHaveProperty('phone');
    const o = presentOrganizer({ ...organizer, title: 'A -- B', email: ' org@example.com ' }, true);
    expect(o).toMatchObject({ organizer: 'A &#8212; B', email: 'org@example.com' });
    expect((o.json_ld as Record<string, unknown>).name).toBe('A &#8212; B');
    // get_the_title() marks private posts in JSON-LD names.
    expect((presentEvent({ ...e, status: 'private' }, linked, true).json_ld as Record<string, unknown>).name).toBe(
      'Private: Jazz &#038; Blues: &#8220;Late&#8221; Night at Joe&#8217;s &#8212; 3&#215;4 &#8230;',
    );
    // Term names are stored as WordPress stores them (filtered on save) and shown as they are.
    const stored = renderTermName('Rock & <b>Roll</b>');
    expect(stored).toBe('Rock &amp; Roll');
    expect(presentTerm({ ...concerts, name: stored }).name).toBe('Rock &amp; Roll');
    expect(presentNestedTerm({ ...concerts, name: stored }).name).toBe('Rock &amp; Roll');
  });

  it('presents standalone venues and organizers with TEC key order and empty fields dropped', () => {
    expect(ours(presentVenue({ ...venue, date: '2026-11-22 02:55:45' }))).toEqual(sample('seed/venue.json'));
    expect(ours(presentOrganizer(organizer))).toEqual(sample('seed/organizer.json'));
    const single = presentVenue(venue, true);
    expect(Object.keys(single).filter((k) => k !== 'lang')).toEqual(Object.keys(sample('09-venue-5.json')));
  });

  it('drops a venue author of 0 and an empty city', () => {
    const v = presentVenue({ ...venue, author: 0, city: '' });
    expect(v).not.toHaveProperty('author');
    expect(v).not.toHaveProperty('city');
    expect(v.show_map).toBe(true);
  });

  it('presents standalone terms as the WordPress terms controller does', () => {
    const tecCategory = sample('12-categories.json').categories[0];
    expect(ours(presentTerm(concerts))).toEqual(tecCategory);
    const tag = ours(presentTerm(outdoor));
    expect(tag).toEqual(sample('14-tags.json').tags[0]);
    expect(tag).not.toHaveProperty('parent');
  });

  it('shows the permalink as website when none was ever set, and "" when cleared', () => {
    expect(presentEvent({ ...event, website: null }, linked).website).toBe('http://127.0.0.1:8080/event/winter-concert/');
    expect(presentEvent({ ...event, website: '' }, linked).website).toBe('');
  });

  it('shows several venues as a list and none as an empty list', () => {
    const second = { ...venue, id: 9, pk: 'POST#9' };
    const both = {
      ...linked,
      venues: new Map([
        [5, venue],
        [9, second],
      ]),
    };
    expect(Array.isArray(presentEvent({ ...event, venues: [5, 9] }, both).venue)).toBe(true);
    expect(presentEvent({ ...event, venues: [] }, linked).venue).toEqual([]);
  });

  it('prefixes non-default languages in public URLs and puts the record language in rest_url', () => {
    const ru = presentEvent({ ...event, lang: 'ru' }, linked);
    expect(ru.url).toBe('http://127.0.0.1:8080/ru/event/winter-concert/');
    expect(ru.rest_url).toBe('http://127.0.0.1:8080/ru/tribe/events/v1/events/7');
    expect(ru.lang).toBe('ru');
  });
});
