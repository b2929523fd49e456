// The arguments of TEC's `tec/v1` namespace (events, venues, organizers), as TEC 6.17 declares
// them: names, types, defaults and choices. Their values reach the same logic as the
// `<ns>/events/v1` routes' (lib/logic/tec-v1.ts maps one onto the other), so the checks of values
// that both namespaces take (dates, time zones, ids) are those of the v1 arguments.
import { config } from '#lib/runtime/config.js';
import { LIST_LIMITS } from '#lib/contract/budget.js';
import { bool, checked, idList, int, str, type Arg, type Args } from '#lib/contract/params.js';
import { urlOrEmpty } from '#lib/contract/url-arg.js';
import { wpEnum } from './wp-term.js';
import { authorArg, dateArg, forceArg, mlLanguage, optional, pathId, type POST_STATUSES, statusArg, timezoneArg } from './common.js';

/** The statuses TEC's lists and writes take here, in its order. */
export const TEC_V1_STATUSES = ['publish', 'pending', 'draft', 'future', 'private'] as const satisfies readonly (typeof POST_STATUSES)[number][];

/** A list filter of ids, at most as many as a v1 list takes (lib/contract/budget.ts). */
const ids = (description: string) =>
  ({ schema: idList({ max: LIST_LIMITS.eventFilter }), type: 'array', items: 'integer', maxItems: LIST_LIMITS.eventFilter, description }) satisfies Arg;

/** TEC's words for a refused positive integer and date-time. */
const POSITIVE = {
  code: 'tec_rest_invalid_positive_integer_argument',
  message: 'Argument `{{param}}` must be a positive integer.',
  details: 'The argument `{{param}}` is not a positive integer.',
};
const DATE_TIME = {
  code: 'tec_rest_invalid_date_time_argument',
  message: 'Argument `{{param}}` must be a date-time.',
  details: 'We cannot parse the argument `{{param}}` as a date-time.',
};

/** TEC refuses an item of a list of ids in the positive integer's words, naming it `example` (its schema's placeholder). */
const ITEM = { ...POSITIVE, argument: 'example', applies: Array.isArray };
const URI = { code: 'tec_rest_invalid_uri_argument', message: 'Argument `{{param}}` must be a valid URL.', details: 'The argument `{{param}}` is not a valid URL.' };
const EMAIL = {
  code: 'tec_rest_invalid_email_argument',
  message: 'Argument `{{param}}` must be a valid email address.',
  details: 'The argument `{{param}}` is not a valid email address.',
};

/**
 * A date a write takes only in the form TEC's pattern gives (an event's wall times: `Y-m-d H:i:s`;
 * the post's dates: ISO 8601), refused in TEC's words, which quote the pattern.
 */
function patterned<R extends boolean = false>(description: string, pattern: RegExp, required?: R) {
  const arg = dateArg(description, required);
  const refusal = {
    code: DATE_TIME.code,
    message: 'Argument `{{param}}` must match the pattern.',
    details: `The argument \`{{param}}\` does not match the pattern \`${pattern.source}\`.`,
  };
  return {
    ...arg,
    schema: checked<string>((v) => (typeof v === 'string' && pattern.test(v) && arg.schema.safeParse(v).success ? undefined : 'does not match the pattern.')),
    refusal,
  } satisfies Arg;
}
const WALL_TIME = /^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}(?::\d{2})?)?$/;

/** Links of a write, as many as the v1 write takes; a list with an item that is no id is refused in TEC's words for it. */
const links = (description: string) => ({ schema: idList(), type: 'array', items: 'integer', description, refusal: ITEM }) satisfies Arg;

const positive = (description: string) => ({ schema: int({ min: 1 }), type: 'integer', description, refusal: POSITIVE }) satisfies Arg;
const when = (description: string) => ({ ...dateArg(description), refusal: DATE_TIME }) satisfies Arg;

const flag = (description: string) => ({ schema: bool(), type: 'boolean', description }) satisfies Arg;

/** A list of statuses, each one TEC takes, as a list or comma-separated. */
const statusList = {
  schema: checked<string[] | string>((v) => {
    const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : undefined;
    return items?.length && items.every((s) => typeof s === 'string' && (TEC_V1_STATUSES as readonly string[]).includes(s.trim())) ? undefined : 'is not one of the post statuses.';
  }),
  type: 'array',
  items: 'string',
  enum: TEC_V1_STATUSES,
  default: ['publish'],
  description: 'Limit results to these post statuses (others than publish for those who may edit them)',
} satisfies Arg;

const paging = {
  page: { ...positive('The collection page number.'), default: 1 },
  per_page: {
    // TEC declares a maximum of 100 and serves more; this API serves at most MAX_PER_PAGE.
    ...positive('The number of items to be returned.'),
    // The site's setting (POSTS_PER_PAGE), as TEC takes WordPress's `posts_per_page`.
    get default() {
      return config().postsPerPage;
    },
  },
} satisfies Args;

const EVENT_ORDERBY = ['date', 'event_date', 'title', 'menu_order', 'modified'] as const;

const eventList = {
  ...paging,
  start_date: when('Limit to events that start on or after this date.'),
  end_date: when('Limit to events that end on or before this date.'),
  search: { schema: str({ max: 200 }), type: 'string', description: 'Limit results to those matching a string.' },
  categories: ids('Limit to events in these category ids.'),
  tags: ids('Limit to events with these tag ids.'),
  venue: ids('Limit to events at these venue ids.'),
  organizer: ids('Limit to events by these organizer ids.'),
  featured: flag('Limit to featured (or not featured) events.'),
  status: statusList,
  post_parent: positive('Limit to events whose parent is this event id.'),
  starts_before: when('Limit to events that start before this date.'),
  starts_after: when('Limit to events that start after this date.'),
  ends_before: when('Limit to events that end before this date.'),
  ends_after: when('Limit to events that end after this date.'),
  ticketed: flag('Limit to events with (or without) tickets.'),
  orderby: { schema: wpEnum(EVENT_ORDERBY), type: 'string', enum: EVENT_ORDERBY, default: 'event_date', description: 'Sort the collection by this attribute.' },
  order: { schema: wpEnum(['ASC', 'DESC'] as const), type: 'string', enum: ['ASC', 'DESC'], default: 'ASC', description: 'Order sort attribute ascending or descending.' },
  ml_language: mlLanguage,
} satisfies Args;

const placeList = {
  ...paging,
  search: { schema: str({ max: 200 }), type: 'string', description: 'Limit results to those matching a string.' },
  event: positive('Limit to those linked to this event id.'),
  has_events: flag('Limit to those that have (or have no) events.'),
  only_with_upcoming: flag('Limit to those that have upcoming events.'),
  status: statusList,
  ml_language: mlLanguage,
} satisfies Args;

/** The post fields every kind takes in a write (WordPress's own, of which TEC keeps what it stores). */
const postWrite = {
  date: patterned("The post's publication date, in the site's time zone.", ISO_TIME),
  date_gmt: patterned("The post's publication date, in UTC.", ISO_TIME),
  slug: { schema: str({ max: 200 }), type: 'string', description: 'An alphanumeric identifier unique to its type.' },
  status: { ...statusArg, enum: TEC_V1_STATUSES, description: 'A named status for the post.' },
  title: { schema: str({ max: 1000 }), type: 'string', description: 'The title.', html: { filter: 'title' } },
  content: { schema: str(), type: 'string', description: 'The content.', html: { filter: 'post' } },
  excerpt: { schema: str(), type: 'string', description: 'The excerpt.', html: { filter: 'post' } },
  author: { ...authorArg, refusal: POSITIVE },
} satisfies Args;

const needed = <A extends Arg>(arg: A) => ({ ...arg, required: true as const });

const eventWrite = {
  ...postWrite,
  title: needed(postWrite.title),
  sticky: flag('Whether the event is pinned in the calendar views.'),
  tags: links('The tag ids.'),
  tribe_events_cat: links('The event category ids.'),
  start_date: patterned("The event's start, in its time zone.", WALL_TIME, true),
  end_date: patterned("The event's end, in its time zone.", WALL_TIME, true),
  timezone: timezoneArg,
  all_day: flag('Whether the event lasts the whole day.'),
  featured: flag('Whether the event is featured.'),
  cost: { schema: str({ max: 255 }), type: 'string', description: "The event's cost." },
  organizers: links('The organizer ids.'),
  venues: links('The venue ids.'),
  ml_language: mlLanguage,
} satisfies Args;

/** A one-line text field (TEC saves post meta through sanitize_text_field, for every user). */
const text = (description: string, max = 1000) => ({ schema: str({ max }), type: 'string', description, html: { filter: 'meta', always: true } }) satisfies Arg;

const venueWrite = {
  ...postWrite,
  title: needed(postWrite.title),
  address: text("The venue's address."),
  country: text("The venue's country."),
  city: text("The venue's city."),
  state_province: text("The venue's state or province."),
  state: text("The venue's state."),
  province: text("The venue's province."),
  zip: text("The venue's ZIP code.", 40),
  phone: text("The venue's phone number.", 80),
  website: { schema: urlOrEmpty(), type: 'string', format: 'uri', description: "The venue's website.", refusal: URI },
  ml_language: mlLanguage,
} satisfies Args;

const organizerWrite = {
  ...postWrite,
  title: needed(postWrite.title),
  phone: text("The organizer's phone number.", 80),
  website: { schema: urlOrEmpty(), type: 'string', format: 'uri', description: "The organizer's website.", refusal: URI },
  email: {
    schema: checked<string>((v) => (typeof v === 'string' && (v === '' || /^[^\s@]+@[^\s@]+$/.test(v.trim())) ? undefined : 'is not a valid e-mail address.')),
    type: 'string',
    format: 'email',
    description: "The organizer's e-mail address.",
    refusal: EMAIL,
    html: { filter: 'meta', always: true },
  },
  ml_language: mlLanguage,
} satisfies Args;

/**
 * A kind's operations. A create needs what the v1 create needs (a title, and an event's dates),
 * which TEC declares optional and refuses later; an update needs nothing.
 */
const entity = <W extends Args, L extends Args>(write: W, list: L) =>
  ({
    list,
    create: write,
    get: { id: pathId, ml_language: mlLanguage },
    update: { id: pathId, ...optional(write) },
    delete: { id: pathId, force: { ...forceArg, description: 'Whether to bypass Trash and force deletion.' }, ml_language: mlLanguage },
  }) satisfies Record<string, Args>;

export const tecEventArgs = entity(eventWrite, eventList);
export const tecVenueArgs = entity(venueWrite, placeList);
export const tecOrganizerArgs = entity(organizerWrite, placeList);

/** The namespace's index and its OpenAPI document. */
export const tecV1RootArgs = {
  index: {
    namespace: { schema: str(), type: 'string', default: 'tec/v1', description: 'The namespace' },
    context: { schema: str(), type: 'string', default: 'view', description: 'Scope under which the request is made' },
    ml_language: mlLanguage,
  },
  docs: { ml_language: mlLanguage },
} satisfies Record<string, Args>;
