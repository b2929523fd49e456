// Event arguments, with TEC's validation rules (docs/tec-behaviour.md §4.1, §6.1).
import { parseCostInput } from '#lib/domain/cost.js';
import { bool, checked, oneOf, statusList, idList, idOrSlugList, int, listArg, listItems, num, searchText, str, type Arg, type Args } from '#lib/contract/params.js';
import { imageUrlOrEmpty, urlOrEmpty } from '#lib/contract/url-arg.js';
import { LIST_LIMITS } from '#lib/contract/budget.js';
import { dateArg, forceArg, mlLanguage, optional, pagingArgs, pathId, pathSlug, postArgs, timezoneArg } from './common.js';

/** A JSON number names a record only as a positive integer: 0.5, -0 or 1e309 name nothing. */
const isIdNumber = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

const isLinkValue = (v: unknown): boolean => isIdNumber(v) || (typeof v === 'string' && /^\d*$/.test(v.trim())) || (typeof v === 'object' && v !== null && !Array.isArray(v));

/** A venue or organizer link: an id, `{id}`, an inline object, a list of those, or empty to clear. */
const linkArg = (description: string) => ({
  schema: checked((v) => {
    if (v === null || v === '' || v === 0) return undefined;
    const items = Array.isArray(v) ? v : typeof v === 'string' ? listItems(v) : [v];
    return items?.every(isLinkValue) ? undefined : 'must be ids or objects.';
  }),
  type: 'array' as const,
  items: 'integer' as const,
  description,
});

/** Term links: ids, slugs or names, as a list or CSV; empty clears. */
const termsArg = (description: string) => ({
  schema: checked((v) => {
    if (v === null || v === '' || v === 0) return undefined;
    const items = listItems(v);
    // A name is a string and a number is an id; a number that is no id is not a name either.
    return items?.every((i) => isIdNumber(i) || typeof i === 'string') ? undefined : 'must be a list of term ids, slugs or names.';
  }),
  type: 'array' as const,
  items: 'integer' as const,
  description,
});

const flag = (description: string) => ({ schema: bool(), type: 'boolean' as const, description });

/**
 * A series' rules: RFC 5545 lines, as Google Calendar's API takes them (one line may come as a
 * string). Each line is read against the event's start and zone by the logic (lib/logic/series.ts).
 */
const recurrenceArg = {
  schema: checked<string[] | string>((v) =>
    typeof v === 'string' || (Array.isArray(v) && v.every((line) => typeof line === 'string')) ? undefined : 'must be a list of RFC 5545 lines (RRULE, RDATE or EXDATE).',
  ),
  type: 'array' as const,
  items: 'string' as const,
  description:
    'Makes the event recurring: RFC 5545 lines, each an RRULE, RDATE or EXDATE (with ;TZID=, ;VALUE=DATE or UTC values). start_date and end_date are the first occurrence and give every occurrence its duration; each occurrence is an event of its own',
};

/** Which events of a series a write of one of them takes (lib/logic/series-scope.ts). */
export const SERIES_SCOPES = ['this', 'following', 'all'] as const;
const scopeArg = (description: string) => ({ schema: oneOf(SERIES_SCOPES), type: 'string', enum: SERIES_SCOPES, default: 'this', description }) satisfies Arg;
const deleteScope = scopeArg(
  'For an event of a series: this (the event alone), following (this and every later event of the series; the series ends before it and the earlier events take the shortened recurrence) or all (the whole series, which writes no more occurrences). An event of no series is deleted alone',
);
const updateScope = scopeArg(
  "For an event of a series: this (the event alone), following (the series splits in two at this event: it and every later event form a series of their own, whose first event it is, and take the fields sent; the earlier events keep the old series, ended before it; with recurrence, the new series takes those rules from this event once the later events have moved; dates, timezone, all_day and slug are refused with it) or all (the fields sent, other than dates, timezone, all_day and slug, are written to every event of the series; fields not sent keep each event's own; new recurrence is followed from the series' first event: events of dates it still gives keep their ids, the others go to the trash, new dates are written). An event of no series is updated alone",
);

export const eventWriteArgs = {
  title: { schema: str({ nonEmpty: true, notZero: true, max: 1000 }), type: 'string', required: true, description: 'The event title', html: { filter: 'title' } },
  start_date: dateArg('The event start date and time', true),
  end_date: dateArg('The event end date and time', true),
  ...postArgs,
  description: { schema: str({ nonEmpty: true, notZero: true }), type: 'string', description: 'The event description', html: { filter: 'post' } },
  slug: { schema: str({ nonEmpty: true, max: 200 }), type: 'string', description: 'The event slug' },
  excerpt: { schema: str({ nonEmpty: true, notZero: true }), type: 'string', description: 'The event excerpt', html: { filter: 'post' } },
  timezone: timezoneArg,
  all_day: { ...flag('Whether the event lasts the whole day'), default: false },
  image: { schema: imageUrlOrEmpty(), type: 'string', description: 'URL of the featured image' },
  cost: {
    schema: checked((v) => (parseCostInput(v) ? undefined : 'is not a valid cost.')),
    description: 'The event cost: a string such as "20$" or "10 - 50", a number, or a list of them',
  },
  website: { schema: urlOrEmpty(), type: 'string', description: 'The event website URL' },
  show_map: flag('Whether to show a map of the venue'),
  show_map_link: flag('Whether to show a map link to the venue'),
  hide_from_listings: flag('Whether to hide the event from the calendar listings'),
  sticky: flag('Whether to pin the event in the calendar views'),
  featured: flag('Whether the event is featured'),
  categories: termsArg('Event categories: ids, slugs or names; unknown names are created'),
  tags: termsArg('Event tags: ids, slugs or names; unknown names are created'),
  venue: linkArg('Venue: an id, {"id": n}, or an object that creates a venue'),
  organizer: linkArg('Organizers: ids, {"id": n} objects, or objects that create organizers'),
  password: { schema: str({ max: 255 }), type: 'string', description: 'Password that protects the event; "" removes it. Never returned' },
  recurrence: recurrenceArg,
  ml_language: mlLanguage,
} satisfies Args;

/** Unlocks a password-protected event on reads (the spec declares it on the ru routes; every language accepts it). */
const unlock = { schema: str({ max: 255 }), type: 'string' as const, description: 'The password of a protected event' };
/** `context=edit` unlocks a password-protected event for those who may edit it; TEC checks no other value. */
const editContext = {
  schema: str({ max: 20 }),
  type: 'string' as const,
  description: 'edit: a password-protected event shows in full, without its password, to those who may edit it',
};
/** `?ical=1`: the answer as an iCalendar file (text/calendar), as TEC exports events. */
const ical = flag('Answer with an iCalendar file (text/calendar) instead of JSON');

/** A month of the calendar, `YYYY-MM`, a day of it, `YYYY-MM-DD`, or `now`. */
export const MONTH_INPUT = /^(?:now|(\d{4})-(\d{2})(?:-(\d{2}))?)$/;
const isMonthInput = (v: unknown): boolean => {
  const m = typeof v === 'string' ? MONTH_INPUT.exec(v) : null;
  if (!m) return false;
  if (m[1] === undefined) return true;
  const [year, month, day] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

export const eventArgs = {
  list: {
    ...pagingArgs('events'),
    start_date: dateArg('Events that start on or after the specified date'),
    end_date: dateArg('Events that end on or before the specified date'),
    starts_before: dateArg('Events that start before the specified date'),
    starts_after: dateArg('Events that start after the specified date'),
    ends_before: dateArg('Events that end before the specified date'),
    ends_after: dateArg('Events that end after the specified date'),
    strict_dates: {
      schema: bool(),
      type: 'boolean',
      default: false,
      description: 'Use the given times as they are instead of covering entire days',
    },
    search: {
      schema: searchText({ max: 200, maxWords: LIST_LIMITS.searchWords }),
      type: 'string',
      description: 'Events should contain the specified string in the title or description',
    },
    categories: listArg(idOrSlugList, LIST_LIMITS.eventFilter, 'Events should be assigned one of the specified categories slugs or IDs'),
    tags: listArg(idOrSlugList, LIST_LIMITS.eventFilter, 'Events should be assigned one of the specified tags slugs or IDs'),
    venue: listArg(idList, LIST_LIMITS.eventFilter, 'Events should be assigned one of the specified venue IDs'),
    organizer: listArg(idList, LIST_LIMITS.eventFilter, 'Events should be assigned one of the specified organizer IDs'),
    featured: flag('Events should be filtered by their featured status'),
    status: { schema: statusList(), type: 'string', description: 'The event post status, or several as a list or comma-separated' },
    geoloc: flag('Events should be filtered by whether their venue has geolocation data'),
    geoloc_lat: { schema: num({ min: -90, max: 90 }), type: 'number', format: 'double', description: 'Venue latitude; geoloc_lng must also be given' },
    geoloc_lng: { schema: num({ min: -180, max: 180 }), type: 'number', format: 'double', description: 'Venue longitude; geoloc_lat must also be given' },
    geoloc_radius: { schema: num({ min: 0, max: 20_000 }), type: 'number', format: 'double', default: 25, description: 'Radius in km around geoloc_lat/geoloc_lng' },
    include: listArg(idList, LIST_LIMITS.include, 'Only events with these ids; the date window is then ignored'),
    post_parent: { schema: int({ min: 1 }), type: 'integer', description: 'Events whose parent is the given event id' },
    ticketed: flag('Events should be filtered by whether they have tickets'),
    password: { ...unlock, description: 'Shows password-protected events with this password unredacted' },
    context: editContext,
    month: {
      schema: checked<string>((v) => (isMonthInput(v) ? undefined : 'must be a month (YYYY-MM), a day (YYYY-MM-DD) or now.')),
      type: 'string',
      description:
        "Events that take place in this month of the site's calendar, as TEC's month view exports them: YYYY-MM, or YYYY-MM-DD to start at that day when it is in the current month; now: the current month from today",
    },
    ical: { ...ical, description: 'Answer with an iCalendar feed (text/calendar) of every matching event, up to a limit, instead of a page' },
    ical_limit: {
      schema: int({ min: 1 }),
      type: 'integer',
      description: 'With ical: the most events the feed holds, the soonest (at most the configured limit, ICAL_MAX_EVENTS)',
    },
    ml_language: mlLanguage,
  },
  create: eventWriteArgs,
  get: { id: pathId, password: unlock, context: editContext, ical, ml_language: mlLanguage },
  getBySlug: { slug: pathSlug, password: unlock, context: editContext, ical, ml_language: mlLanguage },
  update: { id: pathId, ...optional(eventWriteArgs), scope: updateScope },
  updateBySlug: {
    ...optional(eventWriteArgs),
    scope: updateScope,
    slug: { ...pathSlug, inBody: { ...eventWriteArgs.slug, description: 'A new slug for the event (renames it)' } },
  },
  delete: { id: pathId, force: forceArg, scope: deleteScope, password: unlock, ml_language: mlLanguage },
  deleteBySlug: { slug: pathSlug, force: forceArg, scope: deleteScope, password: unlock, ml_language: mlLanguage },
} satisfies Record<string, Args>;
