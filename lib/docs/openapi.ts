// The OpenAPI 3.1 document served at /doc (reference §9.1), generated, never written by hand:
// - paths, methods, parameters and request bodies come from the operation table (operations.ts)
//   and the argument definitions (resources/*.ts, params.ts);
// - the response schemas of records are inferred from what the presenters (present.ts) return for
//   representative stored items, so a presenter change shows up here; only descriptions and the
//   links between schemas ($ref) are written down below, and test/unit/openapi.test.ts fails when
//   they drift from the presenters;
// - list envelopes, the namespace index and the error envelope are small fixed shapes, written
//   down once here;
// - WordPress's own routes (`api: 'wp'`: users/me and application passwords) live under
//   `/{lang}/wp/v2`, not below the document's server: their path items carry that server, and
//   their shapes and status codes are WordPress's, written down in a table of their own;
// - examples (path variables, request bodies) name records of the local demo calendar
//   (DEMO_RECORDS), so that "Try it out" on the local /docs page works as it is.
// The document is built on first use and cached per process (per language and site).
import { apiBase, config, LANGUAGES, type Config, type Lang } from '#lib/runtime/config.js';
import { API_ROOTS, OPERATIONS, type Api, type Method, type Operation } from '#lib/contract/operations.js';
import { ROLES } from '#lib/contract/principal.js';
import { argSchema, documentedArgs, pathNames, type ArgDoc } from '#lib/contract/arg-docs.js';
import type { Arg } from '#lib/contract/params.js';
import { presentEvent, presentNestedTerm, presentOrganizer, presentTerm, presentVenue, redact, type Linked } from '#lib/present/present.js';
import { POST_STATUSES } from '#lib/contract/args/common.js';
import type { EventItem, OrganizerItem, TermItem, VenueItem } from '#lib/store/items.js';

export type Json = Record<string, unknown>;
export { documentedArgs };

// --- schema inference from presented values ------------------------------------------------------

type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function jsonType(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as 'boolean' | 'string' | 'object';
}

/**
 * The JSON Schema that fits all the example values: their types, array items, object properties
 * (in first-seen order) and, as `required`, the properties every example object has.
 */
export function inferSchema(values: unknown[]): Json {
  let types = [...new Set(values.map(jsonType))];
  if (types.includes('number')) types = types.filter((t) => t !== 'integer');
  const out: Json = { type: types.length === 1 ? types[0] : types };
  const items = values.filter(Array.isArray).flat();
  if (items.length) out.items = inferSchema(items);
  const objects = values.filter(isObject);
  if (objects.length) {
    const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))];
    out.properties = Object.fromEntries(keys.map((k) => [k, inferSchema(objects.filter((o) => k in o).map((o) => o[k]))]));
    const required = keys.filter((k) => objects.every((o) => k in o));
    if (required.length) out.required = required;
  }
  return out;
}

// --- representative records, presented -----------------------------------------------------------

const stamp = { date: '2027-01-02 10:00:00', date_utc: '2027-01-02 10:00:00', modified: '2027-01-03 11:30:00', modified_utc: '2027-01-03 11:30:00' };
const post = { sk: 'POST', lang: 'en' as Lang, status: 'publish', author: 1, version: 1, ...stamp };

/** Every optional field set (so that no key is dropped), and the fewest fields a record can have. */
function storedSamples() {
  const venue: VenueItem = {
    ...post, pk: 'POST#2', id: 2, kind: 'venue', slug: 'anchor-hall', title: 'Anchor Hall', description: 'The main hall', excerpt: 'A hall',
    image: 'https://example.com/hall.jpg', website: 'https://example.com/hall', address: '1 Loop Road', city: 'Springfield',
    country: 'United States', province: 'Sangamon', state: 'IL', zip: '62701', phone: '+1 555 0100', stateprovince: 'IL',
    showMap: true, showMapLink: true, geoLat: 39.7817, geoLng: -89.6501,
  };
  const bareVenue: VenueItem = {
    ...post, pk: 'POST#12', id: 12, kind: 'venue', author: 0, slug: 'hall', title: 'Hall', description: '', excerpt: '', image: '',
    website: null, address: '', city: '', country: '', province: '', state: '', zip: '', phone: '', stateprovince: '',
    showMap: false, showMapLink: false,
  };
  const organizer: OrganizerItem = {
    ...post, pk: 'POST#3', id: 3, kind: 'organizer', slug: 'anchor-org', title: 'Anchor Org', description: 'Organizes things',
    excerpt: 'Organizer', image: 'https://example.com/org.png', website: 'https://example.com/org', phone: '+1 555 0199', email: 'org@example.com',
  };
  const bareOrganizer: OrganizerItem = {
    ...post, pk: 'POST#13', id: 13, kind: 'organizer', author: 0, slug: 'org', title: 'Org', description: '', excerpt: '', image: '',
    website: null, phone: '', email: '',
  };
  const term = (id: number, taxonomy: TermItem['taxonomy'], parent: number, description: string): TermItem => ({
    pk: `TERM#${id}`, sk: 'TERM', id, taxonomy, lang: 'en', name: `Term ${id}`, slug: `term-${id}`, description, parent, count: 1, version: 1,
  });
  const concerts = term(4, 'category', 0, 'Live music');
  const jazz = term(5, 'category', 4, 'Jazz concerts');
  const outdoor = term(6, 'tag', 0, 'Outside');
  const event: EventItem = {
    ...post, pk: 'POST#7', id: 7, kind: 'event', slug: 'winter-concert', title: 'Winter Concert', description: 'An evening concert.',
    excerpt: 'Evening concert', image: 'https://example.com/concert.jpg', website: 'https://example.com/concert',
    start: '2027-01-15 19:00:00', end: '2027-01-15 22:00:00', utcStart: '2027-01-15 17:00:00', utcEnd: '2027-01-15 20:00:00',
    timezone: 'Europe/Vilnius', allDay: false, cost: { values: ['10', '25'], symbol: '€', position: 'postfix', code: 'EUR' },
    showMap: true, showMapLink: true, hidden: true, sticky: true, featured: true,
    venues: [2], organizers: [3], categories: [4, 5], tags: [6], parent: 0,
  };
  const bareEvent: EventItem = {
    ...post, pk: 'POST#17', id: 17, kind: 'event', slug: 'event', title: 'Event', description: '', excerpt: '', image: '', website: null,
    start: '2027-01-15 00:00:00', end: '2027-01-15 23:59:59', utcStart: '2027-01-15 00:00:00', utcEnd: '2027-01-15 23:59:59',
    timezone: '', allDay: true, showMap: false, showMapLink: false, sticky: false, featured: false,
    venues: [], organizers: [], categories: [], tags: [], parent: 0,
  };
  const linked: Linked = {
    venues: new Map([[2, venue]]),
    organizers: new Map([[3, organizer]]),
    terms: new Map([concerts, jazz, outdoor].map((t) => [t.id, t])),
  };
  const none: Linked = { venues: new Map(), organizers: new Map(), terms: new Map() };
  return { venue, bareVenue, organizer, bareOrganizer, concerts, jazz, outdoor, event, bareEvent, linked, none };
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
  const nested = [...(event.categories as Json[]), ...(event.tags as Json[])];
  return {
    Event: [event, listed, bare, asJson(redact(listed))],
    // TEC leaves out venue and organizer fields that are "0" (array_filter), a name or slug included.
    Venue: [asJson(presentVenue(s.venue, true)), asJson(presentVenue(s.venue)), asJson(presentVenue(s.bareVenue)), asJson(presentVenue({ ...s.bareVenue, title: '0', slug: '0' }))],
    Organizer: [
      asJson(presentOrganizer(s.organizer, true)),
      asJson(presentOrganizer(s.organizer)),
      asJson(presentOrganizer(s.bareOrganizer)),
      asJson(presentOrganizer({ ...s.bareOrganizer, title: '0', slug: '0' })),
    ],
    Term: [asJson(presentTerm(s.jazz)), asJson(presentTerm(s.concerts)), asJson(presentTerm(s.outdoor)), asJson(presentTerm({ ...s.outdoor, description: '' }))],
    EventTerm: nested.length ? nested : [asJson(presentNestedTerm(s.jazz))],
    Image: [event.image as Json, asJson(presentVenue(s.venue)).image as Json],
    DateDetails: [event.start_date_details as Json, bare.utc_end_date_details as Json],
    CostDetails: [event.cost_details as Json, bare.cost_details as Json],
  };
}

// --- record schemas: descriptions and links --------------------------------------------------------

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const langSchema: Json = { type: 'string', enum: [...LANGUAGES] };
const statusSchema: Json = { type: 'string', enum: [...POST_STATUSES, 'trash'] };
const jsonLd = (type: string): Json => ({ type: 'object', properties: { '@type': { const: type } }, additionalProperties: true });

const postFields = (noun: string): Record<string, string> => ({
  id: `The ${noun} ID`,
  global_id: `The ID that identifies the ${noun} across sites: the site host (and path) followed by ?id=<id>`,
  global_id_lineage: `The global IDs of the ${noun} and of the records it was imported from, its own first`,
  author: `The user ID of the ${noun}'s author, as a string`,
  status: `The ${noun}'s post status`,
  date: `When the ${noun} was published, in the site time zone (YYYY-MM-DD HH:MM:SS)`,
  date_utc: `When the ${noun} was published, in UTC (YYYY-MM-DD HH:MM:SS)`,
  modified: `When the ${noun} was last modified, in the site time zone (YYYY-MM-DD HH:MM:SS)`,
  modified_utc: `When the ${noun} was last modified, in UTC (YYYY-MM-DD HH:MM:SS)`,
  url: `The ${noun}'s public page`,
  description: `The ${noun}'s description, as rendered HTML`,
  excerpt: `The ${noun}'s excerpt, as rendered HTML`,
  slug: `The ${noun}'s slug, unique among the ${noun}s of its language`,
  website: `The ${noun}'s website URL`,
  lang: `The language the ${noun} belongs to (an addition to TEC)`,
});

const termFields = (noun: string): Record<string, string> => ({
  id: `The ${noun} ID`,
  name: `The ${noun} name`,
  slug: `The ${noun} slug`,
  taxonomy: 'The taxonomy: tribe_events_cat for categories, post_tag for tags',
  description: `The ${noun} description`,
  parent: 'The parent category ID; 0 for none',
  count: 'The number of published events that carry the term',
  urls: 'REST URLs of the term (self), of its collection and, when it has a parent, of the parent (up)',
  lang: `The language the ${noun} belongs to (an addition to TEC)`,
});

interface RecordDoc {
  description: string;
  /** A description for every property the presenter emits. */
  properties: Record<string, string>;
  /** Schemas that replace the inferred ones (links to other components, enums). */
  overrides?: Record<string, Json>;
}

const RECORDS: Record<string, RecordDoc> = {
  Event: {
    description:
      'An event. json_ld is only present on single reads (GET by id or slug). In lists, a password-protected event the caller has not unlocked is redacted: texts become "", flags null, links [] and image false.',
    properties: {
      ...postFields('event'),
      rest_url: 'The REST URL of the event',
      title: 'The event title',
      image: 'The featured image, or false when the event has none',
      all_day: 'Whether the event lasts all day',
      start_date: "The start, in the event's time zone (YYYY-MM-DD HH:MM:SS)",
      start_date_details: 'The parts of start_date',
      end_date: "The end, in the event's time zone (YYYY-MM-DD HH:MM:SS)",
      end_date_details: 'The parts of end_date',
      utc_start_date: 'The start in UTC (YYYY-MM-DD HH:MM:SS)',
      utc_start_date_details: 'The parts of utc_start_date',
      utc_end_date: 'The end in UTC (YYYY-MM-DD HH:MM:SS)',
      utc_end_date_details: 'The parts of utc_end_date',
      timezone: "The event's time zone (an IANA name or UTC±N); the site's when the event names none",
      timezone_abbr: 'The abbreviation of the time zone at the start, e.g. EET',
      cost: 'The cost as text, e.g. "10 – 25€" or "Free"; "" when there is none',
      cost_details: 'The parts of the cost',
      website: "The event's website URL; the event's page when it was never set, \"\" when it was cleared",
      show_map: 'Whether to show a map of the venue',
      show_map_link: 'Whether to show a link to a map of the venue',
      hide_from_listings: 'Whether the event is hidden from calendar listings',
      sticky: 'Whether the event is pinned in calendar views',
      featured: 'Whether the event is featured',
      categories: "The event's categories",
      tags: "The event's tags",
      venue: 'The venue; a list when the event has several, and [] when it has none',
      organizer: 'The organizers, always a list',
      custom_fields: 'Additional fields; always empty',
      json_ld: 'The schema.org Event description (single reads only)',
    },
    overrides: {
      status: statusSchema,
      image: { anyOf: [ref('Image'), { const: false }] },
      start_date_details: ref('DateDetails'),
      end_date_details: ref('DateDetails'),
      utc_start_date_details: ref('DateDetails'),
      utc_end_date_details: ref('DateDetails'),
      cost_details: ref('CostDetails'),
      categories: { type: 'array', items: ref('EventTerm') },
      tags: { type: 'array', items: ref('EventTerm') },
      venue: { anyOf: [ref('Venue'), { type: 'array', items: ref('Venue') }] },
      organizer: { type: 'array', items: ref('Organizer') },
      json_ld: jsonLd('Event'),
      lang: langSchema,
    },
  },
  Venue: {
    description:
      'A venue, standalone or inside an event. Empty values are left out (a venue without a city has no city key); show_map, show_map_link and the global IDs are always present. json_ld is only present on single reads.',
    properties: {
      ...postFields('venue'),
      venue: 'The venue name',
      image: 'The featured image; absent when the venue has none',
      address: 'The street address',
      city: 'The city',
      country: 'The country',
      province: 'The province',
      state: 'The state',
      zip: 'The ZIP or postal code',
      phone: 'The phone number',
      stateprovince: 'The state or province',
      geo_lat: 'The latitude',
      geo_lng: 'The longitude',
      json_ld: 'The schema.org Place description (single reads only)',
      show_map: 'Whether events at the venue show a map',
      show_map_link: 'Whether events at the venue show a link to a map',
    },
    overrides: { status: statusSchema, image: ref('Image'), json_ld: jsonLd('Place'), lang: langSchema },
  },
  Organizer: {
    description:
      'An organizer, standalone or inside an event. Empty values are left out; the global IDs are always present. json_ld is only present on single reads.',
    properties: {
      ...postFields('organizer'),
      organizer: 'The organizer name',
      image: 'The featured image; absent when the organizer has none',
      phone: 'The phone number',
      email: 'The e-mail address',
      json_ld: 'The schema.org Person description (single reads only)',
    },
    overrides: { status: statusSchema, image: ref('Image'), json_ld: jsonLd('Person'), lang: langSchema },
  },
  Term: {
    description: 'A category or tag, as /categories and /tags show it (WordPress\'s term shape). Tags have no parent.',
    properties: {
      ...termFields('term'),
      meta: 'Term meta; always empty',
      url: "The term's public archive page",
    },
    overrides: { lang: langSchema },
  },
  EventTerm: {
    description: "A category or tag inside an event (WordPress's raw term object, with id last and urls added).",
    properties: {
      ...termFields('term'),
      term_group: 'Always 0',
      term_taxonomy_id: 'The term taxonomy ID (equal to id)',
      filter: 'Always "raw"',
    },
    overrides: { lang: langSchema },
  },
  Image: {
    description: 'A featured image.',
    properties: { url: 'The image URL', id: 'The attachment ID; always 0 (images are given by URL)', extension: 'The file extension' },
  },
  DateDetails: {
    description: 'The parts of a date, as zero-padded strings.',
    properties: { year: 'The year', month: 'The month (01-12)', day: 'The day (01-31)', hour: 'The hour (00-23)', minutes: 'The minutes', seconds: 'The seconds' },
  },
  CostDetails: {
    description: 'The parts of a cost.',
    properties: {
      currency_symbol: 'The currency symbol',
      currency_code: 'The ISO 4217 currency code, or ""',
      currency_position: 'Where the symbol goes: prefix or postfix ("" when unset)',
      values: 'Every numeric cost, ascending, as strings; non-numeric costs as slugs',
    },
  },
};

export interface SchemaDrift {
  schema: string;
  /** Properties the presenter emits without a description here. */
  undescribed: string[];
  /** Descriptions or overrides of properties the presenter does not emit. */
  stale: string[];
}

function recordSchema(name: string, examples: Json[]): { schema: Json; drift: SchemaDrift } {
  const doc = RECORDS[name]!;
  const inferred = inferSchema(examples);
  const props = (inferred.properties ?? {}) as Record<string, Json>;
  const overrides = doc.overrides ?? {};
  const properties = Object.fromEntries(
    Object.entries(props).map(([k, s]) => [k, { ...(overrides[k] ?? s), ...(doc.properties[k] ? { description: doc.properties[k] } : {}) }]),
  );
  const emitted = Object.keys(props);
  return {
    schema: { type: 'object', description: doc.description, properties, ...(inferred.required ? { required: inferred.required } : {}) },
    drift: {
      schema: name,
      undescribed: emitted.filter((k) => !doc.properties[k]),
      stale: [...new Set([...Object.keys(doc.properties), ...Object.keys(overrides)])].filter((k) => !emitted.includes(k)),
    },
  };
}

// --- fixed shapes: list envelopes, namespace index, errors ---------------------------------------

const url: Json = { type: 'string', format: 'uri' };

/** Events, venues and organizers (lib/logic/lists.ts `envelope`): the records first. */
function postList(key: string, item: string): Json {
  return {
    type: 'object',
    description: `A page of ${key}. The X-TEC-Total and X-TEC-TotalPages headers repeat total and total_pages.`,
    properties: {
      [key]: { type: 'array', items: ref(item), description: `The ${key} of this page` },
      rest_url: { ...url, description: 'This page, with the effective query' },
      next_rest_url: { ...url, description: 'The next page; only when there is one' },
      previous_rest_url: { ...url, description: 'The previous page; only on pages after the first that have results' },
      total: { type: 'integer', minimum: 0, description: `The number of matching ${key}` },
      total_pages: { type: 'integer', minimum: 0, description: 'The number of pages; 0 when nothing matches' },
    },
    required: [key, 'rest_url', 'total', 'total_pages'],
  };
}

/** Categories and tags (lib/logic/lists.ts `listTerms`): WordPress's order, the terms after the counts. */
function termList(key: string): Json {
  return {
    type: 'object',
    description: `A page of ${key}. The X-TEC-Total and X-TEC-TotalPages headers repeat total and total_pages.`,
    properties: {
      rest_url: { ...url, description: 'The collection URL, without a query' },
      total: { type: 'integer', minimum: 0, description: `The number of matching ${key}` },
      total_pages: { type: 'integer', minimum: 0, description: 'The number of pages; 0 when nothing matches' },
      [key]: { type: 'array', items: ref('Term'), description: `The ${key} of this page` },
      next_rest_url: { ...url, description: 'The next page (only the page number is carried over); only when there is one' },
      previous_rest_url: { ...url, description: 'The previous page; only after the first page' },
    },
    required: ['rest_url', 'total', 'total_pages', key],
  };
}

const links: Json = { type: 'array', items: { type: 'object', properties: { href: url }, required: ['href'] } };
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const methodList: Json = { type: 'array', items: { type: 'string', enum: METHODS } };

/** WordPress's namespace index (reference §9.2), as lib/logic/root.ts builds it. */
const namespaceIndexSchema: Json = {
  type: 'object',
  description: "WordPress's description of the namespace: every route with its methods and arguments.",
  properties: {
    namespace: { type: 'string', description: 'The namespace, e.g. tribe/events/v1' },
    routes: {
      type: 'object',
      description: 'The routes, keyed by their WordPress pattern, e.g. /tribe/events/v1/events/(?P<id>\\d+)',
      additionalProperties: {
        type: 'object',
        properties: {
          namespace: { type: 'string' },
          methods: methodList,
          endpoints: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                methods: methodList,
                args: {
                  description: 'The arguments by name; [] when there are none',
                  anyOf: [
                    {
                      type: 'object',
                      additionalProperties: {
                        type: 'object',
                        properties: {
                          default: {},
                          description: { type: 'string' },
                          type: { type: 'string' },
                          items: { type: 'object' },
                          format: { type: 'string' },
                          enum: { type: 'array' },
                          required: { type: 'boolean' },
                        },
                        required: ['required'],
                      },
                    },
                    { type: 'array', maxItems: 0 },
                  ],
                },
              },
              required: ['methods', 'args'],
            },
          },
          _links: { type: 'object', properties: { self: links }, required: ['self'], description: 'Only on routes without path variables' },
        },
        required: ['namespace', 'methods', 'endpoints'],
      },
    },
    _links: { type: 'object', properties: { up: links }, required: ['up'] },
  },
  required: ['namespace', 'routes', '_links'],
};

/** WordPress's error envelope (lib/contract/errors.ts). */
const errorSchema: Json = {
  type: 'object',
  description: "WordPress's error envelope.",
  properties: {
    code: { type: 'string', description: 'The error code, e.g. rest_invalid_param or rest-event-not-found' },
    message: { type: 'string', description: 'A human-readable message' },
    data: {
      type: 'object',
      properties: {
        status: { type: 'integer', description: 'The HTTP status' },
        params: {
          description: 'rest_invalid_param: why each parameter is invalid, by name; rest_missing_callback_param: the missing names',
          anyOf: [{ type: 'object', additionalProperties: { type: 'string' } }, { type: 'array', items: { type: 'string' } }],
        },
        details: { description: 'More about the error; [] when there is nothing more', type: ['object', 'array', 'string'] },
      },
      required: ['status'],
      // Some errors carry more, e.g. term_exists its term_id.
      additionalProperties: true,
    },
  },
  required: ['code', 'message', 'data'],
};

// --- WordPress's shapes: users/me and application passwords ---------------------------------------
// As lib/logic/users.ts answers them (WordPress's users and application-passwords controllers);
// the fuzzer (fuzz/) checks real answers against them, with every object closed.

/** WordPress's GMT time without a zone (mysql_to_rfc3339), e.g. 2027-01-02T10:00:00. */
const wpTime: Json = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$' };
const wpLinks = (...names: string[]): Json => ({ type: 'object', properties: Object.fromEntries(names.map((n) => [n, links])), required: names });

const appPasswordFields: Record<string, Json> = {
  uuid: { type: 'string', format: 'uuid', description: "The application password's unique identifier" },
  app_id: { type: 'string', description: 'The UUID the application gave to identify itself, or ""' },
  name: { type: 'string', description: 'The name of the application password, unique among its user\'s' },
  created: { ...wpTime, description: 'When it was made, in GMT (YYYY-MM-DDTHH:MM:SS)' },
  last_used: { type: ['string', 'null'], pattern: wpTime.pattern, description: 'When it last signed a request in, in GMT; null when never (noted at most once a day per address)' },
  last_ip: { type: ['string', 'null'], description: 'The address of the last request it signed in; null when never' },
};

/** A password as a list shows it, and the one made, which alone shows the password itself. */
function appPasswordSchema(created: boolean): Json {
  const properties: Record<string, Json> = {
    ...appPasswordFields,
    ...(created
      ? {
          password: {
            type: 'string',
            pattern: '^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$',
            minLength: 29,
            maxLength: 29,
            description: 'The password, shown this once only (only a hash is kept): 24 letters and digits in six groups of four',
          },
        }
      : {}),
    _links: { ...wpLinks('self'), description: 'The REST URL of the password' },
  };
  return {
    type: 'object',
    description: created ? 'The application password just made, with the password itself.' : 'An application password (never the password itself).',
    properties,
    required: Object.keys(properties),
  };
}

const avatarSizes = ['24', '48', '96'];
const roleMap: Json = { type: 'object', additionalProperties: { type: 'boolean' } };

/** WordPress's user: the view context's keys, and (optional) those the edit context adds. */
const userSchema: Json = {
  type: 'object',
  description: 'A user, as WordPress shows one: with context=edit also username, names, email, locale, nickname, roles and capabilities.',
  properties: {
    id: { type: 'integer', minimum: 1, description: 'The user id' },
    username: { type: 'string', description: 'The login (context=edit)' },
    name: { type: 'string', description: 'The display name: the login' },
    first_name: { type: 'string', description: 'Always "" (context=edit)' },
    last_name: { type: 'string', description: 'Always "" (context=edit)' },
    email: { type: 'string', description: 'The e-mail address of the token, or "" (context=edit)' },
    url: { type: 'string', description: 'Always ""' },
    description: { type: 'string', description: 'Always ""' },
    link: { ...url, description: "The author's public page" },
    locale: { type: 'string', description: 'Always en_US (context=edit)' },
    nickname: { type: 'string', description: 'The login (context=edit)' },
    slug: { type: 'string', description: 'The slug of the login' },
    roles: { type: 'array', items: { type: 'string', enum: [...ROLES] }, description: "The user's role, or [] for none (context=edit)" },
    capabilities: { ...roleMap, description: 'The role, as a capability (context=edit)' },
    extra_capabilities: { ...roleMap, description: 'The role, as a capability (context=edit)' },
    avatar_urls: {
      type: 'object',
      description: 'Gravatar URLs by size in pixels',
      properties: Object.fromEntries(avatarSizes.map((s) => [s, url])),
      required: avatarSizes,
    },
    meta: { type: 'array', maxItems: 0, description: 'User meta; always empty' },
    _links: { ...wpLinks('self', 'collection'), description: 'The REST URLs of the user and of the users' },
  },
  required: ['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', 'meta', '_links'],
};

function wpSchemas(): Json {
  return {
    User: userSchema,
    AppPassword: appPasswordSchema(false),
    AppPasswordCreated: appPasswordSchema(true),
    AppPasswordList: { type: 'array', description: "A user's application passwords, oldest first.", items: ref('AppPassword') },
    AppPasswordDeleted: {
      type: 'object',
      description: 'A revoked application password.',
      properties: { deleted: { const: true, description: 'Always true' }, previous: { ...ref('AppPassword'), description: 'The password as it was' } },
      required: ['deleted', 'previous'],
    },
    AppPasswordsDeleted: {
      type: 'object',
      description: "A user's application passwords, all revoked.",
      properties: { deleted: { const: true, description: 'Always true' }, count: { type: 'integer', minimum: 0, description: 'How many there were' } },
      required: ['deleted', 'count'],
    },
  };
}

// --- components ----------------------------------------------------------------------------------

let components: { value: Json; drift: SchemaDrift[] } | undefined;

function buildComponents(): { value: Json; drift: SchemaDrift[] } {
  const examples = presentedExamples();
  const drift: SchemaDrift[] = [];
  const schemas: Json = {};
  for (const name of Object.keys(RECORDS)) {
    const built = recordSchema(name, examples[name] ?? []);
    schemas[name] = built.schema;
    drift.push(built.drift);
  }
  Object.assign(schemas, {
    EventList: postList('events', 'Event'),
    VenueList: postList('venues', 'Venue'),
    OrganizerList: postList('organizers', 'Organizer'),
    CategoryList: termList('categories'),
    TagList: termList('tags'),
    NamespaceIndex: namespaceIndexSchema,
    Error: errorSchema,
    ...wpSchemas(),
  });
  const inputs = inputComponents();
  Object.assign(schemas, inputs.schemas);
  return {
    value: {
      schemas,
      responses: SHARED_RESPONSES,
      requestBodies: inputs.requestBodies,
      headers: {
        'X-TEC-Total': { description: 'The number of matching records', schema: { type: 'integer', minimum: 0 } },
        'X-TEC-TotalPages': { description: 'The number of pages', schema: { type: 'integer', minimum: 0 } },
        ETag: { description: "The answer's tag, for If-None-Match; a record's tag also names its revision, for If-Match", schema: { type: 'string' } },
        'Cache-Control': { description: 'public, max-age=N, stale-while-revalidate=M for anonymous reads; private, no-store otherwise', schema: { type: 'string' } },
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A JWT from the configured issuer. Writes need one (or an application password, basicAuth); reads accept one (editors and authors then see unpublished records).',
        },
        basicAuth: {
          type: 'http',
          scheme: 'basic',
          description:
            "A login and an application password (WordPress's HTTP Basic for REST clients): the user name is the login of the password's user, the password one made with POST /users/me/application-passwords (spaces in it do not matter). It acts with its user's role, as long as the user still has it.",
        },
      },
    },
    drift,
  };
}

/** Where the record schemas' descriptions and the presenters disagree (for the tests). */
export function schemaDrift(): SchemaDrift[] {
  return (components ??= buildComponents()).drift;
}

// --- responses -------------------------------------------------------------------------------------
// Every operation declares the status codes it can answer, each error with WordPress's envelope
// (components.schemas.Error). The codes follow from the operation's properties in the operation
// table, never from a per-operation list:
// - every operation: its success (201 for a POST to a collection, else 200), 400 (its arguments),
//   401 (writes: no or a bad token; reads: a bad token) and 500;
// - writes: 403 (the caller's role or rights) and 409 (a lost race);
// - a path variable ({id}, {slug}): 404, from the route itself for an id that is not a positive
//   integer or a slug with a "/" (rest_no_route), and for events also for an unknown id;
// - records with a post status (their schema has `status`): reads by id or slug 403 (trashed,
//   unpublished or password-protected), and their paged lists 404 beyond the last page;
// - a DELETE that takes `force` moves to the trash first: 410 when the record is already there;
// - every method but GET reads a request body: 413 (too large) and 415 (neither JSON nor a form).

interface ResourceDoc {
  schema: string;
  list: string;
  one: string;
}

const RESOURCES: Record<string, ResourceDoc> = {
  events: { schema: 'Event', list: 'EventList', one: 'event' },
  venues: { schema: 'Venue', list: 'VenueList', one: 'venue' },
  organizers: { schema: 'Organizer', list: 'OrganizerList', one: 'organizer' },
  categories: { schema: 'Term', list: 'CategoryList', one: 'category' },
  tags: { schema: 'Term', list: 'TagList', one: 'tag' },
};

const content = (schema: Json) => ({ 'application/json': { schema } });
const ok = (description: string, schema: Json): Json => ({ description, content: content(schema) });
const fail = (description: string): Json => ({ description, content: content(ref('Error')) });

/** Responses many operations share, in components.responses. */
const SHARED_RESPONSES = {
  Conflict: fail('Another request changed the same records at the same time; nothing was written and the request may be retried (rest_conflict)'),
  Unauthorized: fail(
    'No credentials, an invalid bearer token or a malformed Authorization header (rest_forbidden), or HTTP Basic with an unknown login (invalid_username) or a wrong application password (incorrect_password)',
  ),
  BadToken: fail(
    'The Authorization header is malformed or its token is invalid (rest_forbidden), or HTTP Basic names an unknown login (invalid_username) or a wrong application password (incorrect_password); reads need no credentials',
  ),
  PayloadTooLarge: fail('The request body is larger than the limit (rest_payload_too_large)'),
  UnsupportedMediaType: fail('The request body is neither JSON nor a form (rest_unsupported_media_type)'),
  InternalError: fail('The server could not complete the request (rest_internal_error)'),
} satisfies Record<string, Json>;
const shared = (name: keyof typeof SHARED_RESPONSES): Json => ({ $ref: `#/components/responses/${name}` });
const VALIDATOR_HEADERS: Json = {
  ETag: { $ref: '#/components/headers/ETag' },
  'Cache-Control': { $ref: '#/components/headers/Cache-Control' },
};

/** What a TEC operation's status codes follow from (see the top of this section). */
export interface OperationTraits {
  write: boolean;
  /** The variable of a path that names one record. */
  pathVar?: string;
  /** GET on a collection. */
  list: boolean;
  /** POST to a collection: 201. */
  create: boolean;
  /** The operation's records have a post status (published, draft, trash…), as their schema shows. */
  postStatus: boolean;
  /** A DELETE with `force`: trashes first, 410 when already trashed. */
  trashes: boolean;
  /** Reads a request body (every method but GET): 413 and 415. */
  body: boolean;
}

export function operationTraits(op: Operation): OperationTraits {
  const r = RESOURCES[op.id.split('.')[0]!];
  const pathVar = pathNames(op.path).at(-1);
  const schemas = (components ??= buildComponents()).value.schemas as Record<string, Json>;
  const postStatus = !!r && !!(schemas[r.schema]?.properties as Json | undefined)?.status;
  const onCollection = !!r && pathVar === undefined;
  return {
    write: op.access === 'write',
    ...(pathVar ? { pathVar } : {}),
    list: onCollection && op.methods.includes('GET'),
    create: onCollection && op.methods.includes('POST'),
    postStatus,
    trashes: op.methods.includes('DELETE') && 'force' in op.args,
    body: op.methods.some((m) => m !== 'GET'),
  };
}

function responses(op: Operation): Record<string, Json> {
  if (op.api === 'wp') return wpResponses(op);
  const t = operationTraits(op);
  const [kind = '', name = ''] = op.id.split('.');
  const r = RESOURCES[kind];
  const out: Record<string, Json> = {};

  // Success.
  if (!r) {
    out[200] = name === 'index' ? ok('The routes of this namespace and their arguments', ref('NamespaceIndex')) : ok('This OpenAPI document', { type: 'object' });
  } else if (t.list) {
    out[200] = {
      description: `A page of ${kind}`,
      headers: { 'X-TEC-Total': { $ref: '#/components/headers/X-TEC-Total' }, 'X-TEC-TotalPages': { $ref: '#/components/headers/X-TEC-TotalPages' }, ...VALIDATOR_HEADERS },
      content: content(ref(r.list)),
    };
  } else if (t.create) {
    out[201] = ok(`The created ${r.one}`, ref(r.schema));
  } else if (op.methods.includes('DELETE')) {
    out[200] = ok(
      t.trashes ? `The ${r.one} as trashed (status "trash"), or as it was when force=true deleted it permanently` : `The ${r.one} as it was before it was deleted`,
      ref(r.schema),
    );
  } else if (t.write) {
    out[200] = ok(`The updated ${r.one}`, ref(r.schema));
  } else {
    out[200] = ok(`The ${r.one}${t.postStatus ? ', with json_ld' : ''}`, ref(r.schema));
  }

  // Every record and page answer carries its tag (writes: the tag of the record they show).
  for (const status of [200, 201]) {
    if (r && out[status] && !(t.write && op.methods.includes('DELETE'))) out[status] = { ...out[status], headers: { ...((out[status] as Json).headers as Json | undefined), ...VALIDATOR_HEADERS } };
  }
  if (r && !t.write) out[304] = { description: 'The If-None-Match tag is the current one: no body', headers: VALIDATOR_HEADERS };

  // 400: every operation has arguments; writes also check links, dates and their JSON.
  const one = r?.one ?? 'record';
  const unknownRecord = t.pathVar
    ? kind === 'events' && t.pathVar === 'id'
      ? ', the id belongs to a record that is not an event (rest-invalid-event-id)'
      : `, no ${one} has this ${t.pathVar} (rest_invalid_param)`
    : '';
  out[400] = fail(
    t.write
      ? `A required parameter is missing (rest_missing_callback_param), a parameter is invalid (rest_invalid_param, term_exists, invalid-linked-post-id, could-not-create-venue…)${unknownRecord}, or the body is not valid JSON (rest_invalid_json)`
      : `A parameter is invalid (rest_invalid_param)${unknownRecord}`,
  );
  out[401] = shared(t.write ? 'Unauthorized' : 'BadToken');

  if (t.write) {
    const verb = op.methods.includes('DELETE') ? 'delete' : t.create ? 'create' : 'edit';
    out[403] = fail(`The caller's role or rights may not ${verb} this ${one}${t.trashes ? ', or force=true without the editor role' : ''} (rest_forbidden)`);
  } else if (t.pathVar && t.postStatus) {
    out[403] = fail(
      kind === 'events'
        ? "The event is trashed (event-no-longer-available), not published and not the caller's (event-not-accessible), or protected by a password that was not given (event-password-protected)"
        : `The ${one} is trashed or not published and not the caller's (${one}-not-accessible)`,
    );
  }

  if (t.pathVar) {
    const noRoute = t.pathVar === 'id' ? 'the id is not a positive integer' : 'the slug contains a "/"';
    out[404] = fail(`${kind === 'events' && t.pathVar === 'id' ? 'No event has this id (rest-event-not-found), or ' : 'No route: '}${noRoute} (rest_no_route)`);
  } else if (t.list && t.postStatus) {
    out[404] = fail(`The page is beyond the last one (${one}-archive-page-not-found)`);
  }

  if (t.write) out[409] = op.idempotent ? fail('Another request changed the same records at the same time (rest_conflict), or the first request with this Idempotency-Key is still running (rest_idempotency_in_progress); nothing was written and the request may be retried') : shared('Conflict');
  if (t.write && t.pathVar && r) out[412] = fail('If-Match names another revision of the record: it was changed since it was read; nothing was written (rest_precondition_failed)');
  if (op.idempotent) out[422] = fail('This Idempotency-Key was used for another request by the same caller within 24 hours (rest_idempotency_key_reused)');
  if (t.trashes) out[410] = fail(`The ${one} is already in the trash (${one}-is-in-trash)`);
  if (t.body) {
    out[413] = shared('PayloadTooLarge');
    out[415] = shared('UnsupportedMediaType');
  }
  out[500] = shared('InternalError');
  return out;
}

// --- responses of WordPress's own routes --------------------------------------------------------------
// Their codes are WordPress's, from lib/logic/users.ts and the pipeline: every one 400 (its
// arguments), 401 (anonymous callers are refused by the operation itself, with WordPress's words;
// bad credentials by the sign-in) and 500; a `{user}` in the path 403 (another user's passwords
// without the editor role) and 404 (no such user, or no route for a `{user}` that is neither "me"
// nor digits); writes 409; methods with a body (POST, DELETE) 413 and 415.

interface WpDoc {
  description: string;
  ok: { status: 200 | 201; description: string; schema: string };
  /** The 403 code (signed-in callers refused), for operations on a `{user}`. */
  refused?: string;
  /** More reasons for a 404, besides an unknown user. */
  notFound?: string;
  /** More reasons for a 400. */
  invalid?: string;
  /** The 409 description, when it is not just a lost race. */
  conflict?: string;
  /** A Location header on success. */
  location?: string;
}

const WP_DOCS: Record<string, WpDoc> = {
  'users.me': {
    description: 'Who the caller is, signed in with a bearer token or an application password. The first request of a user gives them their user id.',
    ok: { status: 200, description: 'The signed-in user', schema: 'User' },
  },
  'appPasswords.list': {
    description: 'Any signed-in user lists their own ("me" or their id); an editor also anyone\'s.',
    ok: { status: 200, description: "The user's application passwords", schema: 'AppPasswordList' },
    refused: 'rest_cannot_list_application_passwords',
  },
  'appPasswords.create': {
    description: "Makes a password for the caller only (\"me\" or their own id), with the caller's role; the answer shows the password this once.",
    ok: { status: 201, description: 'The password made, with the password itself', schema: 'AppPasswordCreated' },
    refused: 'rest_cannot_create_application_passwords',
    invalid: 'the name is empty once sanitized (application_password_empty_name)',
    conflict:
      'The user already has a password of this name (application_password_duplicate_name), the login belongs to another user (rest_login_taken), or another request changed the same records at the same time (rest_conflict)',
    location: 'The REST URL of the password made',
  },
  'appPasswords.deleteAll': {
    description: "Revokes every password of the user: the caller's own, or (editors) anyone's.",
    ok: { status: 200, description: 'How many passwords were revoked', schema: 'AppPasswordsDeleted' },
    refused: 'rest_cannot_delete_application_passwords',
  },
  'appPasswords.introspect': {
    description: 'The application password the request signed in with: only with HTTP Basic, and only for the caller.',
    ok: { status: 200, description: 'The password this request signed in with', schema: 'AppPassword' },
    refused: 'rest_cannot_introspect_app_password_for_non_authenticated_user',
    notFound: 'the request did not sign in with an application password (rest_no_authenticated_app_password), or it was revoked meanwhile (rest_application_password_not_found)',
  },
  'appPasswords.get': {
    description: "One of the user's passwords: the caller's own, or (editors) anyone's.",
    ok: { status: 200, description: 'The application password', schema: 'AppPassword' },
    refused: 'rest_cannot_read_application_password',
    notFound: 'the user has no password with this uuid (rest_application_password_not_found)',
  },
  'appPasswords.delete': {
    description: "Revokes one of the user's passwords: the caller's own, or (editors) anyone's. Requests signed in with it fail from then on.",
    ok: { status: 200, description: 'The revoked password, as it was', schema: 'AppPasswordDeleted' },
    refused: 'rest_cannot_delete_application_password',
    notFound: 'the user has no password with this uuid (rest_application_password_not_found)',
  },
};

function wpDoc(op: Operation): WpDoc {
  const d = WP_DOCS[op.id];
  if (!d) throw new Error(`No documentation for the WordPress route ${op.id}`);
  return d;
}

function wpResponses(op: Operation): Record<string, Json> {
  const d = wpDoc(op);
  const onUser = pathNames(op.path).includes('user');
  const body = op.methods.some((m) => m !== 'GET');
  const out: Record<string, Json> = {};
  out[d.ok.status] = {
    ...ok(d.ok.description, ref(d.ok.schema)),
    ...(d.location ? { headers: { Location: { description: d.location, schema: { type: 'string', format: 'uri' } } } } : {}),
  };
  out[400] = fail(
    `A parameter is missing (rest_missing_callback_param) or invalid (rest_invalid_param)${body ? ', or the body is not valid JSON (rest_invalid_json)' : ''}${d.invalid ? `, or ${d.invalid}` : ''}`,
  );
  out[401] = fail(
    `Not signed in (rest_not_logged_in${onUser ? `; for a user id, ${d.refused}` : ''}), HTTP Basic with an unknown login (invalid_username) or a wrong application password (incorrect_password), or an invalid bearer token or a malformed Authorization header (rest_forbidden)`,
  );
  if (onUser) {
    out[403] = fail(`The user is another one, and the caller may not do this to their passwords (${d.refused})`);
    out[404] = fail(
      `No user has this id (rest_user_invalid_id)${d.notFound ? `, ${d.notFound}` : ''}, or no route: the user is neither "me" nor digits${pathNames(op.path).includes('uuid') ? ', or the uuid contains a "/"' : ''} (rest_no_route)`,
    );
  }
  if (op.access === 'write') out[409] = d.conflict ? fail(d.conflict) : shared('Conflict');
  if (body) {
    out[413] = shared('PayloadTooLarge');
    out[415] = shared('UnsupportedMediaType');
  }
  out[500] = shared('InternalError');
  return out;
}

// --- examples: what "Try it out" sends -----------------------------------------------------------

/**
 * Records of the local demo calendar that the examples name. lib/local/seed.ts makes the venue,
 * the organizer, the event and the application password first, on an empty table, so that they
 * get these ids; the category and the tag are the demo's first English ones (its terms are made
 * one by one, in order: 12 categories, then the tags).
 */
export const DEMO_RECORDS = {
  venue: { id: 1, title: 'Lakeside Pavilion', slug: 'lakeside-pavilion' },
  organizer: { id: 2, title: 'Lakeside Events Office', slug: 'lakeside-events-office' },
  event: { id: 3, title: 'Open House at the Pavilion', slug: 'open-house-at-the-pavilion' },
  category: { id: 1 },
  tag: { id: 13 },
  /** A password of the local editor (`npm run token -- --role editor`: subject local-editor). */
  appPassword: { sub: 'local-editor', uuid: '3f2a9c4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b', name: 'Demo calendar app' },
} as const;

/** Path variables, by name; `<kind>.<name>` for one kind's operations only: demo records. */
const PATH_EXAMPLES: Record<string, unknown> = {
  'events.id': DEMO_RECORDS.event.id,
  'events.slug': DEMO_RECORDS.event.slug,
  'venues.id': DEMO_RECORDS.venue.id,
  'venues.slug': DEMO_RECORDS.venue.slug,
  'organizers.id': DEMO_RECORDS.organizer.id,
  'organizers.slug': DEMO_RECORDS.organizer.slug,
  'categories.id': DEMO_RECORDS.category.id,
  'tags.id': DEMO_RECORDS.tag.id,
  user: 'me',
  uuid: DEMO_RECORDS.appPassword.uuid,
};

/**
 * Body arguments, by name; `<kind>.<name>` for one kind's operations only. A body holds the
 * required arguments; a create also the optional ones named here for its kind (an event's venue,
 * a demo record); an update without required arguments changes the description.
 */
const BODY_EXAMPLES: Record<string, unknown> = {
  'events.title': 'Picnic in the Park',
  'events.start_date': '2030-06-01 12:00:00',
  'events.end_date': '2030-06-01 15:00:00',
  // Declared as a list of ids (one venue or several).
  'events.venue': [DEMO_RECORDS.venue.id],
  'venues.venue': 'Park Bandstand',
  'organizers.organizer': 'Friends of the Park',
  'categories.name': 'Picnics',
  'tags.name': 'Bring a blanket',
  'appPasswords.name': 'Calendar sync',
  description: 'Changed from the API reference.',
};

/** The key of an argument in an example table: its kind's own entry first. */
function exampleKey(table: Record<string, unknown>, op: Operation, name: string): string | undefined {
  const scoped = `${op.id.split('.')[0]}.${name}`;
  return scoped in table ? scoped : name in table ? name : undefined;
}

/** The example of a path variable; undefined when the table has none. */
function pathExample(op: Operation, name: string): unknown {
  const key = exampleKey(PATH_EXAMPLES, op, name);
  return key === undefined ? undefined : PATH_EXAMPLES[key];
}

/** The body "Try it out" sends, with only the fields that should be sent (see BODY_EXAMPLES). */
export function exampleBody(op: Operation): Json | undefined {
  const args = bodyArgs(op);
  if (!args) return undefined;
  const kind = op.id.split('.')[0]!;
  const create = op.id.endsWith('.create');
  const out: Json = {};
  for (const [name, arg] of args) {
    const key = exampleKey(BODY_EXAMPLES, op, name);
    if (arg.required) {
      if (key === undefined) throw new Error(`No example value for the required argument ${name} of ${op.id}`);
      out[name] = BODY_EXAMPLES[key];
    } else if (create && key === `${kind}.${name}`) out[name] = BODY_EXAMPLES[key];
  }
  if (!Object.keys(out).length && args.some(([name]) => name === 'description')) out.description = BODY_EXAMPLES.description;
  return out;
}

// --- paths -----------------------------------------------------------------------------------------

const BODY_METHODS: readonly Method[] = ['POST', 'PUT', 'PATCH'];
const PATH_FALLBACK: ArgDoc = { type: 'string', description: 'A path segment' };
/** What WordPress's routes take for their path variables, beyond "one segment". */
const PATH_PATTERNS: Record<string, string> = { user: '^(?:me|[0-9]+)$' };

function parameter(op: Operation, name: string, where: 'path' | 'query', arg: ArgDoc): Json {
  const example = where === 'path' ? pathExample(op, name) : undefined;
  const pattern = where === 'path' && op.api === 'wp' ? PATH_PATTERNS[name] : undefined;
  return {
    name,
    in: where,
    description: arg.description,
    required: where === 'path' || arg.required === true,
    schema: { ...argSchema(arg), ...(pattern ? { pattern } : {}) },
    // Lists go as one comma-separated value (`?categories=1,2`), as TEC documents them.
    ...(where === 'query' && arg.type === 'array' ? { style: 'form', explode: false } : {}),
    ...(example !== undefined ? { example } : {}),
  };
}

/** The component name of an operation's input, e.g. `events.updateBySlug` -> `EventsUpdateBySlugInput`. */
const inputName = (op: Operation) => `${op.id.split('.').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}Input`;

/** The arguments an operation takes in a request body (writes): all but the path variables. */
function bodyArgs(op: Operation): [string, Arg][] | undefined {
  if (!op.methods.some((m) => BODY_METHODS.includes(m))) return undefined;
  const inPath = pathNames(op.path);
  const args = Object.entries(op.args).flatMap(([n, a]): [string, Arg][] => (!inPath.includes(n) ? [[n, a]] : a.inBody ? [[n, a.inBody]] : []));
  return args.length ? args : undefined;
}

/** One schema and one request body per write operation, shared by its methods and by both media types. */
function inputComponents(): { schemas: Json; requestBodies: Json } {
  const schemas: Json = {};
  const requestBodies: Json = {};
  for (const op of OPERATIONS) {
    const args = bodyArgs(op);
    if (!args) continue;
    const name = inputName(op);
    const required = args.filter(([, a]) => a.required).map(([n]) => n);
    schemas[name] = {
      type: 'object',
      description: `The input of ${op.id}`,
      properties: Object.fromEntries(args.map(([n, a]) => [n, { ...argSchema(a), description: a.description }])),
      ...(required.length ? { required } : {}),
    };
    const arrays = args.filter(([, a]) => a.type === 'array').map(([n]) => n);
    // Without an example, documentation tools fill every property with a placeholder and send them all.
    const example = exampleBody(op);
    requestBodies[name] = {
      required: required.length > 0,
      content: {
        'application/json': { schema: ref(name), example },
        'application/x-www-form-urlencoded': {
          schema: ref(name),
          example,
          // Lists go as one comma-separated value; `name[]=…` repeated also works.
          ...(arrays.length ? { encoding: Object.fromEntries(arrays.map((n) => [n, { style: 'form', explode: false }])) } : {}),
        },
      },
    };
  }
  return { schemas, requestBodies };
}

/** Bearer tokens and application passwords: either one signs a request in. */
const SIGN_IN: Json[] = [{ bearerAuth: [] }, { basicAuth: [] }];

function operationObject(op: Operation, method: Method, ns: string): Json {
  const args = documentedArgs(op, ns);
  const inPath = pathNames(op.path);
  const rest = Object.entries(args).filter(([n]) => !inPath.includes(n));
  const hasBody = BODY_METHODS.includes(method);
  const parameters = [
    ...inPath.map((n) => parameter(op, n, 'path', args[n] ?? PATH_FALLBACK)),
    ...(hasBody ? [] : rest.map(([n, a]) => parameter(op, n, 'query', a))),
    ...httpHeaders(op),
  ];
  return {
    tags: [op.id.split('.')[0]],
    summary: op.summary,
    ...(describe(op) ? { description: describe(op) } : {}),
    operationId: method === op.methods[0] ? op.id : `${op.id}.${method.toLowerCase()}`,
    // TEC's reads declare no security, so that documentation tools show no lock on them:
    // credentials there are optional and only widen what the caller sees (the description says so).
    ...(op.access === 'write' || op.api === 'wp' ? { security: SIGN_IN } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(hasBody && bodyArgs(op) ? { requestBody: { $ref: `#/components/requestBodies/${inputName(op)}` } } : {}),
    responses: responses(op),
  };
}

/** The HTTP headers a TEC operation honours beyond TEC's (lib/http/conditional.ts, lib/http/idempotency.ts). */
function httpHeaders(op: Operation): Json[] {
  if (op.api !== 'tec' || !RESOURCES[op.id.split('.')[0]!]) return [];
  const t = operationTraits(op);
  const header = (name: string, description: string): Json => ({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  if (!t.write) return [header('If-None-Match', 'An ETag of an earlier answer: 304 with no body while the answer is unchanged.')];
  if (op.idempotent) {
    return [header('Idempotency-Key', 'Up to 255 visible ASCII characters: a repeat by the same caller with the same key and request within 24 hours answers as the first did and writes nothing.')];
  }
  return t.pathVar ? [header('If-Match', 'The ETag of the record as last read: the write happens only if the record was not changed since (else 412, nothing written).')] : [];
}

/** Notes that apply to every method of an operation. */
function describe(op: Operation): string | undefined {
  const notes: string[] = [];
  if (op.api === 'wp') notes.push(wpDoc(op).description);
  if (op.methods.length > 1) notes.push(`${op.methods.slice(0, -1).join(', ')} and ${op.methods.at(-1)} do the same.`);
  if (op.api === 'tec' && op.access === 'read' && op.tableActions.length) {
    notes.push('No credentials are needed; with a bearer token or an application password the answer also shows the unpublished records the caller may read.');
  }
  return notes.length ? notes.join(' ') : undefined;
}

/** The URL an API's routes are below, e.g. `https://example.org/en/wp/v2/`. */
export function serverUrl(api: Api, lang: Lang, cfg: Config = config()): string {
  return `${cfg.siteUrl}${API_ROOTS[api](cfg.namespace).replace('{lang}', lang)}/`;
}

/** The path items of some operations, keyed by their path below their API's root. */
function buildPaths(ops: readonly Operation[], ns: string, servers?: Json[]): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const op of ops) {
    // The namespace root is the server URL itself.
    const item = (paths[op.path || '/'] ??= servers ? { servers } : {});
    for (const method of op.methods) item[method.toLowerCase()] = operationObject(op, method, ns);
  }
  return paths;
}

/** Path keys that OpenAPI takes as the same path: equal once their variables' names are dropped. */
const pathShape = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

/**
 * TEC's paths and then WordPress's, which carry their own server. Their keys must differ: one
 * path item has one server list, so a WordPress path equal to a TEC one could not be told apart.
 */
function joinPaths(tec: Record<string, Json>, wp: Record<string, Json>): Record<string, Json> {
  const shapes = new Set(Object.keys(tec).map(pathShape));
  const clash = Object.keys(wp).filter((k) => shapes.has(pathShape(k)));
  if (clash.length) throw new Error(`WordPress paths collide with TEC paths in the OpenAPI document: ${clash.join(', ')}`);
  return { ...tec, ...wp };
}

// --- the document ----------------------------------------------------------------------------------

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** TEC's path items by namespace, WordPress's by their server (site and language). */
const tecPathsByNamespace = new Map<string, Record<string, Json>>();
const wpPathsByServer = new Map<string, Record<string, Json>>();
const documents = new Map<string, Json>();

/** The OpenAPI document for one language (its server URL is that language's API base). Cached and frozen. */
export function openApiDocument(lang: Lang): Json {
  const cfg = config();
  const server = `${apiBase(lang, cfg)}/`;
  const wpServer = serverUrl('wp', lang, cfg);
  const ns = `${cfg.namespace}/events/v1`;
  const cacheKey = `${ns}|${server}|${wpServer}`;
  let doc = documents.get(cacheKey);
  if (!doc) {
    components ??= buildComponents();
    let tec = tecPathsByNamespace.get(ns);
    if (!tec) tecPathsByNamespace.set(ns, (tec = buildPaths(OPERATIONS.filter((op) => op.api === 'tec'), ns)));
    let wp = wpPathsByServer.get(wpServer);
    if (!wp) {
      const servers = [{ url: wpServer, description: "WordPress's own routes (wp/v2), outside this API's namespace" }];
      wpPathsByServer.set(wpServer, (wp = buildPaths(OPERATIONS.filter((op) => op.api === 'wp'), ns, servers)));
    }
    doc = deepFreeze({
      openapi: '3.1.0',
      info: {
        version: '1.0.0',
        title: 'The Events Calendar REST API',
        description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
      },
      components: components.value,
      servers: [{ url: server }],
      paths: joinPaths(tec, wp),
    });
    documents.set(cacheKey, doc);
  }
  return doc;
}
