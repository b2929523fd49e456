// The response schemas of records (events, venues, organizers, terms and their parts): inferred
// from the presented samples (record-samples.ts), with descriptions and links written down here.
import { LANGUAGES } from '#lib/runtime/config.js';
import { POST_STATUSES } from '#lib/contract/args/common.js';
import { inferSchema, ref, type Json } from './json-schema.js';

// --- record schemas: descriptions and links --------------------------------------------------------

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

export const RECORDS: Record<string, RecordDoc> = {
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
      website: 'The event\'s website URL; the event\'s page when it was never set, "" when it was cleared',
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
      recurrence: "Only on events of a series (an addition to TEC): the series' RFC 5545 lines (RRULE, RDATE, EXDATE), the same on every event of it",
      series_id: "Only on events of a series (an addition to TEC): the ID of the series' first event, the one its create answered",
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
      recurrence: { type: 'array', items: { type: 'string' } },
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
    description: 'An organizer, standalone or inside an event. Empty values are left out; the global IDs are always present. json_ld is only present on single reads.',
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
    description: "A category or tag, as /categories and /tags show it (WordPress's term shape). Tags have no parent.",
    properties: {
      ...termFields('term'),
      meta: 'Term meta; always empty',
      url: "The term's public archive page",
      _links:
        "WordPress's links of the term (on a single read, a create and an update, as TEC sends them): self, whose targetHints name the methods the caller may use, collection, about, a category's up, wp:post_type, curies",
    },
    overrides: { lang: langSchema, _links: { type: 'object', additionalProperties: true } },
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

export function recordSchema(name: string, examples: Json[]): { schema: Json; drift: SchemaDrift } {
  const doc = RECORDS[name]!;
  const inferred = inferSchema(examples);
  const props = (inferred.properties ?? {}) as Record<string, Json>;
  const overrides = doc.overrides ?? {};
  const properties = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, { ...(overrides[k] ?? s), ...(doc.properties[k] ? { description: doc.properties[k] } : {}) }]));
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
