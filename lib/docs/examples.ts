// The examples of the OpenAPI document: path variables and request bodies, which "Try it out" on
// the local /docs page sends as they are.
import type { Operation } from '#lib/contract/operations.js';
import { REST_PREFIX } from '#lib/runtime/config.js';
import type { Json } from './json-schema.js';
import { bodyArgs } from './body-args.js';

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
  'root.lang': REST_PREFIX,
  'events.id': DEMO_RECORDS.event.id,
  'events.slug': DEMO_RECORDS.event.slug,
  'venues.id': DEMO_RECORDS.venue.id,
  'venues.slug': DEMO_RECORDS.venue.slug,
  'organizers.id': DEMO_RECORDS.organizer.id,
  'organizers.slug': DEMO_RECORDS.organizer.slug,
  'categories.id': DEMO_RECORDS.category.id,
  'tags.id': DEMO_RECORDS.tag.id,
  'wpCategories.id': DEMO_RECORDS.category.id,
  'wpTags.id': DEMO_RECORDS.tag.id,
  'wpEvents.id': DEMO_RECORDS.event.id,
  'wpVenues.id': DEMO_RECORDS.venue.id,
  'wpOrganizers.id': DEMO_RECORDS.organizer.id,
  'tecEvents.id': DEMO_RECORDS.event.id,
  'tecVenues.id': DEMO_RECORDS.venue.id,
  'tecOrganizers.id': DEMO_RECORDS.organizer.id,
  user: 'me',
  // No demo webhook exists: its reads answer 404 (rest_webhook_not_found).
  'webhooks.uuid': '7d1c0f3e-2a4b-4c5d-8e6f-9a0b1c2d3e4f',
  uuid: DEMO_RECORDS.appPassword.uuid,
};

/**
 * Body arguments, by name; `<kind>.<name>` for one kind's operations only. A body holds the
 * required arguments only: a link to another record (an event's venue) would name a record that
 * a server without the demo calendar does not have, and an inline one does not fit the declared
 * list of ids. An update without required arguments changes the description.
 */
const BODY_EXAMPLES: Record<string, unknown> = {
  'events.title': 'Picnic in the Park',
  'events.start_date': '2030-06-01 12:00:00',
  'events.end_date': '2030-06-01 15:00:00',
  'venues.venue': 'Park Bandstand',
  'organizers.organizer': 'Friends of the Park',
  'categories.name': 'Picnics',
  'tags.name': 'Bring a blanket',
  'wpCategories.name': 'Concerts in the park',
  'wpTags.name': 'Bring a cushion',
  'appPasswords.name': 'Calendar sync',
  'webhooks.url': 'https://example.com/webhooks/calendar',
  'webhooks.events': ['event.*', 'venue.updated'],
  'tecEvents.title': 'Picnic by the Lake',
  'tecEvents.start_date': '2030-06-02 12:00:00',
  'tecEvents.end_date': '2030-06-02 15:00:00',
  'tecVenues.title': 'Lake Bandstand',
  'tecOrganizers.title': 'Friends of the Lake',
  description: 'Changed from the API reference.',
  content: 'Changed from the API reference.',
};

/** The key of an argument in an example table: its kind's own entry first. */
function exampleKey(table: Record<string, unknown>, op: Operation, name: string): string | undefined {
  const scoped = `${op.id.split('.')[0]}.${name}`;
  return scoped in table ? scoped : name in table ? name : undefined;
}

/** The example of a path variable; undefined when the table has none. */
export function pathExample(op: Operation, name: string): unknown {
  const key = exampleKey(PATH_EXAMPLES, op, name);
  return key === undefined ? undefined : PATH_EXAMPLES[key];
}

/** The body "Try it out" sends, with only the fields that should be sent (see BODY_EXAMPLES). */
export function exampleBody(op: Operation): Json | undefined {
  const args = bodyArgs(op);
  if (!args) return undefined;
  const out: Json = {};
  for (const [name, arg] of args) {
    const key = exampleKey(BODY_EXAMPLES, op, name);
    if (!arg.required) continue;
    if (key === undefined) throw new Error(`No example value for the required argument ${name} of ${op.id}`);
    out[name] = BODY_EXAMPLES[key];
  }
  // The text field, WordPress's name of it (`content`) or TEC's v1 one.
  const text = args.find(([name]) => name === 'description' || name === 'content')?.[0];
  if (!Object.keys(out).length && text) out[text] = BODY_EXAMPLES[text];
  return out;
}
