// Venue and organizer arguments (docs/tec-behaviour.md §4.2, §6.2).
import { bool, checked, statusList, int, num, str, type Arg, type Args } from '#lib/contract/params.js';
import { imageUrlOrEmpty, urlOrEmpty } from '#lib/contract/url-arg.js';
import { forceArg, mlLanguage, optional, pagingArgs, pathId, pathSlug, postArgs } from './common.js';

/** A one-line text field, saved as TEC saves post meta (sanitize_text_field), for every user. */
const text = (description: string, max = 1000) => ({ schema: str({ max }), type: 'string', description, html: { filter: 'meta', always: true } }) satisfies Arg;

const commonPostWrite = (noun: string) =>
  ({
    ...postArgs,
    description: { schema: str(), type: 'string', description: `The ${noun} description`, html: { filter: 'post' } },
    website: { schema: urlOrEmpty(), type: 'string', description: `The ${noun} website URL` },
    image: { schema: imageUrlOrEmpty(), type: 'string', description: 'URL of the featured image' },
    ml_language: mlLanguage,
  }) satisfies Args;

export const venueWriteArgs = {
  venue: { schema: str({ nonEmpty: true, notZero: true, max: 1000 }), type: 'string', required: true, description: 'The venue name', html: { filter: 'title' } },
  ...commonPostWrite('venue'),
  show_map: { schema: bool(), type: 'boolean', description: 'Whether linked events show a map' },
  show_map_link: { schema: bool(), type: 'boolean', description: 'Whether linked events show a map link' },
  address: text('The venue address'),
  city: text('The venue city'),
  country: text('The venue country'),
  province: text('The venue province'),
  state: text('The venue state'),
  zip: text('The venue ZIP code', 40),
  phone: text('The venue phone number', 80),
  stateprovince: text('The venue state and province'),
  geo_lat: { schema: num({ min: -90, max: 90 }), type: 'number', format: 'double', description: 'The venue latitude' },
  geo_lng: { schema: num({ min: -180, max: 180 }), type: 'number', format: 'double', description: 'The venue longitude' },
} satisfies Args;

export const organizerWriteArgs = {
  organizer: { schema: str({ nonEmpty: true, notZero: true, max: 1000 }), type: 'string', required: true, description: 'The organizer name', html: { filter: 'title' } },
  ...commonPostWrite('organizer'),
  phone: text('The organizer phone number', 80),
  email: {
    schema: checked<string>((v) => (typeof v === 'string' && (v === '' || /^[^\s@]+@[^\s@]+$/.test(v.trim())) ? undefined : 'is not a valid e-mail address.')),
    type: 'string',
    format: 'email',
    description: 'The organizer e-mail address',
    html: { filter: 'meta', always: true },
  },
} satisfies Args;

const listArgs = (noun: string) =>
  ({
    ...pagingArgs(noun),
    search: { schema: str({ nonEmpty: true, max: 200 }), type: 'string', description: `Limit results to ${noun} containing the string in their fields` },
    event: { schema: int({ min: 1 }), type: 'integer', description: `Limit results to ${noun} linked to this event` },
    has_events: { schema: bool(), description: `Limit results to ${noun} that have events` },
    only_with_upcoming: { schema: bool(), default: false, description: `Limit results to ${noun} that have upcoming events` },
    status: { schema: statusList(), type: 'string', description: `The ${noun} post status, or several as a list or comma-separated` },
    ml_language: mlLanguage,
  }) satisfies Args;

const itemArgs = <W extends Args>(writeArgs: W, noun: string) =>
  ({
    list: listArgs(noun),
    create: writeArgs,
    get: { id: pathId, ml_language: mlLanguage },
    getBySlug: { slug: pathSlug, ml_language: mlLanguage },
    update: { id: pathId, ...optional(writeArgs) },
    updateBySlug: { slug: pathSlug, ...optional(writeArgs) },
    delete: { id: pathId, force: forceArg, ml_language: mlLanguage },
    deleteBySlug: { slug: pathSlug, force: forceArg, ml_language: mlLanguage },
  }) satisfies Record<string, Args>;

export const venueArgs = itemArgs(venueWriteArgs, 'venues');
export const organizerArgs = itemArgs(organizerWriteArgs, 'organizers');
