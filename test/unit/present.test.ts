// The presenters against real TEC responses (reference/tec-samples): same keys, same order, same
// values, apart from the deliberate `lang` addition and json_ld's clean text.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../lib/config.js';
import { presentEvent, presentOrganizer, presentTerm, presentVenue } from '../../lib/present.js';
import type { EventItem, OrganizerItem, TermItem, VenueItem } from '../../lib/store/items.js';

const sample = (name: string) =>
  JSON.parse(readFileSync(new URL(`../tec-samples/${name}`, import.meta.url), 'utf8'));

const stamp = { date: '2026-11-22 02:55:45', date_utc: '2026-11-22 02:55:45', modified: '2026-11-22 02:55:45', modified_utc: '2026-11-22 02:55:45' };

const venue: VenueItem = {
  pk: 'POST#5', sk: 'POST', id: 5, kind: 'venue', lang: 'en', status: 'publish', slug: 'anchor-hall', author: 1, ...stamp,
  title: 'Anchor Hall', description: 'Main hall', excerpt: '', image: '', website: 'http://example.com/hall', version: 1,
  address: '1 Loop Road', city: 'Springfield', country: 'United States', province: '', state: 'IL', zip: '62701',
  phone: '+1 555 0100', stateprovince: 'IL', showMap: true, showMapLink: true,
};
const organizer: OrganizerItem = {
  pk: 'POST#6', sk: 'POST', id: 6, kind: 'organizer', lang: 'en', status: 'publish', slug: 'anchor-org', author: 1, ...stamp,
  title: 'Anchor Org', description: 'Organizes things', excerpt: '', image: '', website: 'http://example.com/org', version: 1,
  phone: '+1 555 0199', email: 'org@example.com',
};
const term = (id: number, taxonomy: 'category' | 'tag', name: string, slug: string, description: string, count: number): TermItem => ({
  pk: `TERM#${id}`, sk: 'TERM', id, taxonomy, lang: 'en', name, slug, description, parent: 0, count, version: 1,
});
const concerts = term(2, 'category', 'Concerts', 'concerts', 'Live music', 2);
const outdoor = term(4, 'tag', 'outdoor', 'outdoor', 'Outside', 2);
const event: EventItem = {
  pk: 'POST#7', sk: 'POST', id: 7, kind: 'event', lang: 'en', status: 'publish', slug: 'winter-concert', author: 1,
  date: '2026-11-22 02:55:46', date_utc: '2026-11-22 02:55:46', modified: '2026-11-22 02:55:46', modified_utc: '2026-11-22 02:55:46',
  title: 'Winter Concert', description: 'An evening concert.', excerpt: 'Evening concert', image: '', website: 'http://example.com/e1', version: 1,
  start: '2027-01-15 19:00:00', end: '2027-01-15 22:00:00', utcStart: '2027-01-15 19:00:00', utcEnd: '2027-01-15 22:00:00',
  timezone: 'UTC', allDay: false, cost: { values: ['25'], symbol: '', position: '', code: '' },
  showMap: false, showMapLink: false, sticky: false, featured: false,
  venues: [5], organizers: [6], categories: [2], tags: [4], parent: 0,
};
const linked = { venues: new Map([[5, venue]]), organizers: new Map([[6, organizer]]), terms: new Map([[2, concerts], [4, outdoor]]) };

/** Drops our `lang` addition at every depth, and json_ld whose text we render cleanly. */
function withoutAdditions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAdditions);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'lang' && k !== 'json_ld').map(([k, v]) => [k, withoutAdditions(v)]));
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
    const ld = single.json_ld as Record<string, unknown>;
    expect(ld).toMatchObject({ '@type': 'Event', name: 'Winter Concert', startDate: '2027-01-15T19:00:00+00:00', description: 'Evening concert' });
    expect((ld.offers as Record<string, unknown>).price).toBe('25');
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
    const both = { ...linked, venues: new Map([[5, venue], [9, second]]) };
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
