// Representative stored records, as the presenters show them: the examples that the response
// schemas of records are inferred from (record-schemas.ts, components.ts).
import type { Lang } from '#lib/runtime/config.js';
import { presentEvent, presentNestedTerm, presentOrganizer, presentTerm, presentVenue, redact, type Linked } from '#lib/present/present.js';
import { termLinks } from '#lib/present/wp-term.js';
import type { EventItem, OrganizerItem, TermItem, VenueItem } from '#lib/store/items.js';
import type { Json } from './json-schema.js';

// --- representative records, presented -----------------------------------------------------------

const stamp = { date: '2027-01-02 10:00:00', date_utc: '2027-01-02 10:00:00', modified: '2027-01-03 11:30:00', modified_utc: '2027-01-03 11:30:00' };
const post = { sk: 'POST', lang: 'en' as Lang, status: 'publish', author: 1, version: 1, ...stamp };

/**
 * An event record with every field at its default (published, timed, in the site's zone, linked to
 * nothing), then `fields`: a start without `utcStart` is read as UTC, an end defaults to the start.
 * The one place that lists every field, for the samples here, the tests and the benchmarks.
 */
export function eventRecord(fields: Partial<EventItem> & { id: number }): EventItem {
  const start = fields.start ?? '2030-06-01 10:00:00';
  const end = fields.end ?? start;
  return {
    pk: `POST#${fields.id}`,
    sk: 'POST',
    kind: 'event',
    lang: 'en',
    status: 'publish',
    slug: `event-${fields.id}`,
    author: 0,
    ...stamp,
    title: `Event ${fields.id}`,
    description: '',
    excerpt: '',
    image: '',
    website: null,
    version: 1,
    start,
    end,
    utcStart: fields.utcStart ?? start,
    utcEnd: fields.utcEnd ?? end,
    timezone: '',
    allDay: false,
    showMap: false,
    showMapLink: false,
    sticky: false,
    featured: false,
    venues: [],
    organizers: [],
    categories: [],
    tags: [],
    parent: 0,
    ...fields,
  };
}

/** Every optional field set (so that no key is dropped), and the fewest fields a record can have. */
export function storedSamples() {
  const { venue, bareVenue } = sampleVenues();
  const { organizer, bareOrganizer } = sampleOrganizers();
  const { concerts, jazz, outdoor } = sampleTerms();
  const { event, bareEvent } = sampleEvents();
  const linked: Linked = {
    venues: new Map([[2, venue]]),
    organizers: new Map([[3, organizer]]),
    terms: new Map([concerts, jazz, outdoor].map((t) => [t.id, t])),
  };
  const none: Linked = { venues: new Map(), organizers: new Map(), terms: new Map() };
  return { venue, bareVenue, organizer, bareOrganizer, concerts, jazz, outdoor, event, bareEvent, linked, none };
}

function sampleVenues(): { venue: VenueItem; bareVenue: VenueItem } {
  const venue: VenueItem = {
    ...post,
    pk: 'POST#2',
    id: 2,
    kind: 'venue',
    slug: 'anchor-hall',
    title: 'Anchor Hall',
    description: 'The main hall',
    excerpt: 'A hall',
    image: 'https://example.com/hall.jpg',
    website: 'https://example.com/hall',
    address: '1 Loop Road',
    city: 'Springfield',
    country: 'United States',
    province: 'Sangamon',
    state: 'IL',
    zip: '62701',
    phone: '+1 555 0100',
    stateprovince: 'IL',
    showMap: true,
    showMapLink: true,
    geoLat: 39.7817,
    geoLng: -89.6501,
  };
  const bareVenue: VenueItem = {
    ...post,
    pk: 'POST#12',
    id: 12,
    kind: 'venue',
    author: 0,
    slug: 'hall',
    title: 'Hall',
    description: '',
    excerpt: '',
    image: '',
    website: null,
    address: '',
    city: '',
    country: '',
    province: '',
    state: '',
    zip: '',
    phone: '',
    stateprovince: '',
    showMap: false,
    showMapLink: false,
  };
  return { venue, bareVenue };
}

function sampleOrganizers(): { organizer: OrganizerItem; bareOrganizer: OrganizerItem } {
  const organizer: OrganizerItem = {
    ...post,
    pk: 'POST#3',
    id: 3,
    kind: 'organizer',
    slug: 'anchor-org',
    title: 'Anchor Org',
    description: 'Organizes things',
    excerpt: 'Organizer',
    image: 'https://example.com/org.png',
    website: 'https://example.com/org',
    phone: '+1 555 0199',
    email: 'org@example.com',
  };
  const bareOrganizer: OrganizerItem = {
    ...post,
    pk: 'POST#13',
    id: 13,
    kind: 'organizer',
    author: 0,
    slug: 'org',
    title: 'Org',
    description: '',
    excerpt: '',
    image: '',
    website: null,
    phone: '',
    email: '',
  };
  return { organizer, bareOrganizer };
}

function sampleTerms() {
  const term = (id: number, taxonomy: TermItem['taxonomy'], parent: number, description: string): TermItem => ({
    pk: `TERM#${id}`,
    sk: 'TERM',
    id,
    taxonomy,
    lang: 'en',
    name: `Term ${id}`,
    slug: `term-${id}`,
    description,
    parent,
    count: 1,
    version: 1,
  });
  const concerts = term(4, 'category', 0, 'Live music');
  const jazz = term(5, 'category', 4, 'Jazz concerts');
  const outdoor = term(6, 'tag', 0, 'Outside');
  return { concerts, jazz, outdoor };
}

function sampleEvents(): { event: EventItem; bareEvent: EventItem } {
  const event: EventItem = {
    ...post,
    pk: 'POST#7',
    id: 7,
    kind: 'event',
    slug: 'winter-concert',
    title: 'Winter Concert',
    description: 'An evening concert.',
    excerpt: 'Evening concert',
    image: 'https://example.com/concert.jpg',
    website: 'https://example.com/concert',
    start: '2027-01-15 19:00:00',
    end: '2027-01-15 22:00:00',
    utcStart: '2027-01-15 17:00:00',
    utcEnd: '2027-01-15 20:00:00',
    timezone: 'Europe/Vilnius',
    allDay: false,
    cost: { values: ['10', '25'], symbol: '€', position: 'postfix', code: 'EUR' },
    showMap: true,
    showMapLink: true,
    hidden: true,
    sticky: true,
    featured: true,
    venues: [2],
    organizers: [3],
    categories: [4, 5],
    tags: [6],
    parent: 0,
  };
  const bareEvent = eventRecord({ ...post, id: 17, slug: 'event', title: 'Event', start: '2027-01-15 00:00:00', end: '2027-01-15 23:59:59', allDay: true });
  return { event, bareEvent };
}

/** What clients receive: JSON, so keys whose value is undefined are gone. */
const asJson = (v: unknown): Json => JSON.parse(JSON.stringify(v)) as Json;

/**
 * The presenters' output for the representative records, per response schema: the first example
 * has every key (in the presenters' order); `required` is what every example has.
 */
export function presentedExamples(): Record<string, Json[]> {
  const s = storedSamples();
  const event = asJson(presentEvent(s.event, s.linked, true));
  const listed = asJson(presentEvent(s.event, s.linked, false));
  const bare = asJson(presentEvent(s.bareEvent, s.none, false));
  // An event of a series: the same, with the series' rules and its first event.
  const occurrence = asJson(presentEvent({ ...s.event, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=10'], seriesId: s.event.id - 1 }, s.linked, false));
  const nested = [...(event.categories as Json[]), ...(event.tags as Json[])];
  return {
    Event: [event, listed, bare, asJson(redact(listed)), occurrence],
    // TEC leaves out venue and organizer fields that are "0" (array_filter), a name or slug included.
    Venue: [asJson(presentVenue(s.venue, true)), asJson(presentVenue(s.venue)), asJson(presentVenue(s.bareVenue)), asJson(presentVenue({ ...s.bareVenue, title: '0', slug: '0' }))],
    Organizer: [
      asJson(presentOrganizer(s.organizer, true)),
      asJson(presentOrganizer(s.organizer)),
      asJson(presentOrganizer(s.bareOrganizer)),
      asJson(presentOrganizer({ ...s.bareOrganizer, title: '0', slug: '0' })),
    ],
    // A single term (read, create, update) also carries WordPress's _links; list items and a delete's answer do not.
    Term: [
      asJson({ ...presentTerm(s.jazz), _links: termLinks(s.jazz, ['GET']) }),
      asJson(presentTerm(s.concerts)),
      asJson(presentTerm(s.outdoor)),
      asJson(presentTerm({ ...s.outdoor, description: '' })),
    ],
    EventTerm: nested.length ? nested : [asJson(presentNestedTerm(s.jazz))],
    Image: [event.image as Json, asJson(presentVenue(s.venue)).image as Json],
    DateDetails: [event.start_date_details as Json, bare.utc_end_date_details as Json],
    CostDetails: [event.cost_details as Json, bare.cost_details as Json],
  };
}
