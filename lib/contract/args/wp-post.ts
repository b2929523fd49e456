// The arguments of WordPress's core post-type routes (`wp/v2/tribe_events`, `tribe_venue`,
// `tribe_organizer`), as WordPress's posts controller declares them: names, defaults, limits and
// refusals. Who may ask for which status is the logic's to check (lib/logic/wp-post-reads.ts).
import * as z from 'zod/mini';
import { int, listItems, refuseValue as refuse, str, type Arg, type Args } from '#lib/contract/params.js';
import { LIST_LIMITS } from '#lib/contract/budget.js';
import { mlLanguage, pathId, POST_STATUSES } from './common.js';
import { between, context, slugList, WP_MAX_PER_PAGE, wpEnum, wpIdList } from './wp-term.js';

export const WP_POST_ORDERBY = ['author', 'date', 'id', 'include', 'modified', 'parent', 'relevance', 'slug', 'include_slugs', 'title'] as const;

/** The statuses a list may ask for: the stored ones, and `any`. */
export const WP_POST_STATUSES = [...POST_STATUSES, 'any'] as const;

/** Statuses as a list or a comma-separated string, each refused by its place when unknown. */
function statusList() {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      const items = listItems(value);
      if (!items || items.some((v) => typeof v !== 'string')) return refuse(ctx, value, 'is not of type array.', 'rest_invalid_type');
      const bad = items.findIndex((v) => !(WP_POST_STATUSES as readonly string[]).includes(String(v).trim()));
      if (bad >= 0) return refuse(ctx, value, `is not one of ${WP_POST_STATUSES.slice(0, -1).join(', ')}, and any.`, 'rest_not_in_enum', bad);
      return [...new Set(items.map((v) => String(v).trim()))];
    }),
  );
}

const ids = (description: string) => ({ schema: wpIdList(LIST_LIMITS.termIds), type: 'array', items: 'integer', maxItems: LIST_LIMITS.termIds, description }) satisfies Arg;

const commonList = {
  context,
  page: { schema: int({ min: 1 }), type: 'integer', default: 1, description: 'Current page of the collection.' },
  per_page: { schema: between(1, WP_MAX_PER_PAGE), type: 'integer', default: 10, description: 'Maximum number of items to be returned in result set.' },
  search: { schema: str({ max: 200 }), type: 'string', description: 'Limit results to those matching a string.' },
  author: ids('Limit result set to posts assigned to specific authors.'),
  author_exclude: ids('Ensure result set excludes posts assigned to specific authors.'),
  exclude: ids('Ensure result set excludes specific IDs.'),
  include: ids('Limit result set to specific IDs.'),
  // Any integer, as WordPress takes it (WP_Query reads a negative offset as its absolute value).
  offset: { schema: int(), type: 'integer', description: 'Offset the result set by a specific number of items.' },
  order: { schema: wpEnum(['asc', 'desc'] as const), type: 'string', enum: ['asc', 'desc'], default: 'desc', description: 'Order sort attribute ascending or descending.' },
  orderby: { schema: wpEnum(WP_POST_ORDERBY), type: 'string', enum: WP_POST_ORDERBY, default: 'date', description: 'Sort collection by post attribute.' },
  slug: {
    schema: slugList(LIST_LIMITS.termIds),
    type: 'array',
    items: 'string',
    maxItems: LIST_LIMITS.termIds,
    description: 'Limit result set to posts with one or more specific slugs.',
  },
  status: {
    schema: statusList(),
    type: 'array',
    items: 'string',
    default: 'publish',
    description: `Limit result set to posts assigned one or more statuses (${WP_POST_STATUSES.join(', ')}); other than publish for signed-in users.`,
  },
  ml_language: mlLanguage,
} satisfies Args;

const get = {
  id: pathId,
  context,
  password: { schema: str(), type: 'string', description: 'The password for the post if it is password protected.' },
  ml_language: mlLanguage,
} satisfies Args;

export const wpEventArgs = {
  list: {
    ...commonList,
    tribe_events_cat: ids('Limit result set to items with specific terms assigned in the tribe_events_cat taxonomy.'),
    tribe_events_cat_exclude: ids('Limit result set to items except those with specific terms assigned in the tribe_events_cat taxonomy.'),
    tags: ids('Limit result set to items with specific terms assigned in the tags taxonomy.'),
    tags_exclude: ids('Limit result set to items except those with specific terms assigned in the tags taxonomy.'),
  } satisfies Args,
  get,
};
export const wpVenueArgs = { list: commonList, get };
export const wpOrganizerArgs = { list: commonList, get };
