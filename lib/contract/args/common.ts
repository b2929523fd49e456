// Arguments shared by every resource: paging, language, path ids, statuses and dates.
import { config, LANGUAGES } from '#lib/runtime/config.js';
import { parseDate, isValidTimezone } from '#lib/domain/time/dates.js';
import { bool, checked, int, oneOf, str, type Arg, type Args } from '#lib/contract/params.js';

export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;

export const mlLanguage = {
  schema: oneOf(LANGUAGES),
  type: 'string',
  enum: LANGUAGES,
  description: 'Language of the request; overrides the language segment of the path',
} satisfies Arg;

export const pathId = {
  schema: int({ min: 1 }),
  type: 'integer',
  required: true,
  path: true,
  description: 'Unique identifier of the record',
} satisfies Arg;

export const pathSlug = {
  schema: str({ nonEmpty: true, max: 200 }),
  type: 'string',
  required: true,
  path: true,
  description: 'Slug of the record',
} satisfies Arg;

export const pagingArgs = (noun: string) =>
  ({
    page: { schema: int({ min: 1 }), type: 'integer', default: 1, description: 'The archive page to return' },
    per_page: {
      schema: int({ min: 1 }),
      type: 'integer',
      description: `The number of ${noun} to return on each page`,
      // The site's setting (POSTS_PER_PAGE), read whenever it is shown or applied.
      get default() {
        return config().postsPerPage;
      },
    },
  }) satisfies Args;

/** A date input in any form of docs/tec-behaviour.md §1.8; the operation parses it again in the right zone. */
export const dateArg = <R extends boolean = false>(description: string, required?: R) =>
  ({
    schema: checked<string | number>((v) => ((typeof v === 'string' || typeof v === 'number') && parseDate(v, 'UTC') !== undefined ? undefined : 'is not a supported date.')),
    // No `format: date-time`: the accepted forms are wider (docs/tec-behaviour.md §1.8), and strict clients would refuse them.
    type: 'string',
    required: (required ?? false) as R,
    description,
  }) satisfies Arg;

export const timezoneArg = {
  schema: checked<string>((v) => (typeof v === 'string' && (v === '' || isValidTimezone(v)) ? undefined : 'is not a valid time zone.')),
  type: 'string',
  description: 'Time zone of the event wall times: an IANA name or UTC±N; empty for the site zone',
} satisfies Arg;

export const statusArg = {
  schema: oneOf(POST_STATUSES),
  type: 'string',
  enum: POST_STATUSES,
  description: 'Post status of the record',
} satisfies Arg;

export const authorArg = { schema: int({ min: 1 }), type: 'integer', description: 'Author user id' } satisfies Arg;

export const forceArg = {
  schema: bool(),
  type: 'boolean',
  default: false,
  description: 'Delete permanently instead of moving to the trash (editors only)',
} satisfies Arg;

/** Post fields every post kind (event, venue, organizer) accepts. */
export const postArgs = {
  author: authorArg,
  date: dateArg('Publication date'),
  date_utc: dateArg('Publication date in UTC'),
  status: statusArg,
} satisfies Args;

/** Makes every argument optional and drops defaults (update payloads: omitted fields keep their value). */
export type Optional<T extends Args> = { [K in keyof T]: Omit<T[K], 'default' | 'required'> & { required: false } };
export function optional<T extends Args>(args: T): Optional<T> {
  return Object.fromEntries(Object.entries(args).map(([k, { default: _default, ...a }]) => [k, { ...a, required: false }])) as Optional<T>;
}
