// Arguments shared by every resource: paging, language, path ids, statuses and dates.
import { config, LANGUAGES } from '#lib/runtime/config.js';
import { parseDate, isValidTimezone } from '#lib/domain/time/dates.js';
import { bool, checked, int, oneOf, str, type Arg, type Args } from '#lib/contract/params.js';

export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;
export type PostStatus = (typeof POST_STATUSES)[number] | 'trash';

export const mlLanguage: Arg = {
  schema: oneOf(LANGUAGES),
  type: 'string',
  enum: LANGUAGES,
  description: 'Language of the request; overrides the language segment of the path',
};

export const pathId: Arg = {
  schema: int({ min: 1 }),
  type: 'integer',
  required: true,
  description: 'Unique identifier of the record',
};

export const pathSlug: Arg = {
  schema: str({ nonEmpty: true, max: 200 }),
  type: 'string',
  required: true,
  description: 'Slug of the record',
};

export const pagingArgs = (noun: string): Args => ({
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
});

/** A date input in any form of DESIGN §2.9; the operation parses it again in the right zone. */
export const dateArg = (description: string, required = false): Arg => ({
  schema: checked<string | number>((v) =>
    (typeof v === 'string' || typeof v === 'number') && parseDate(v, 'UTC') !== undefined
      ? undefined
      : 'is not a supported date.',
  ),
  // No `format: date-time`: the accepted forms are wider (DESIGN §2.9), and strict clients would refuse them.
  type: 'string',
  required,
  description,
});

export const timezoneArg: Arg = {
  schema: checked<string>((v) =>
    typeof v === 'string' && (v === '' || isValidTimezone(v)) ? undefined : 'is not a valid time zone.',
  ),
  type: 'string',
  description: 'Time zone of the event wall times: an IANA name or UTC±N; empty for the site zone',
};

export const statusArg: Arg = {
  schema: oneOf(POST_STATUSES),
  type: 'string',
  enum: POST_STATUSES,
  description: 'Post status of the record',
};

export const authorArg: Arg = { schema: int({ min: 1 }), type: 'integer', description: 'Author user id' };

export const forceArg: Arg = {
  schema: bool(),
  type: 'boolean',
  default: false,
  description: 'Delete permanently instead of moving to the trash (editors only)',
};

/** Post fields every post kind (event, venue, organizer) accepts. */
export const postArgs: Args = {
  author: authorArg,
  date: dateArg('Publication date'),
  date_utc: dateArg('Publication date in UTC'),
  status: statusArg,
};

/** Makes every argument optional and drops defaults (update payloads: omitted fields keep their value). */
export function optional(args: Args): Args {
  return Object.fromEntries(
    Object.entries(args).map(([k, { default: _default, ...a }]) => [k, { ...a, required: false }]),
  );
}
