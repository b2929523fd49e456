// The arguments of WordPress's core term routes (`wp/v2/tags`, `wp/v2/tribe_events_cat`), as
// WordPress's terms controller declares them: its names, defaults, limits and refusals.
import * as z from 'zod/mini';
import { bool, int, listItems, refuseValue as refuse, str, type Arg, type Args } from '#lib/contract/params.js';
import { LIST_LIMITS } from '#lib/contract/budget.js';
import { mlLanguage, optional, pathId } from './common.js';

/** WordPress's per_page ceiling for its collections. */
export const WP_MAX_PER_PAGE = 100;

/** An integer within bounds, refused in WordPress's words for a bounded integer. */
export function between(min: number, max: number) {
  return z.pipe(
    int(),
    z.transform((n: number, ctx) => (n < min || n > max ? refuse(ctx, n, `must be between ${min} (inclusive) and ${max} (inclusive)`, 'rest_out_of_bounds') : n)),
  );
}

/** WordPress's list of choices (wp_sprintf_l): `a and b`, `a, b, and c`. */
const choices = (values: readonly string[]) => (values.length < 3 ? values.join(' and ') : `${values.slice(0, -1).join(', ')}, and ${values.at(-1)}`);

/** One of a fixed set of strings, refused in WordPress's words. */
export function wpEnum<const T extends string>(values: readonly T[]) {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) =>
      typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : refuse(ctx, value, `is not one of ${choices(values)}.`, 'rest_not_in_enum'),
    ),
  );
}

/** Slugs as a list or a comma-separated string, as WordPress's `slug` filter takes them. */
export function slugList(max: number) {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      const items = listItems(value);
      if (!items || items.some((v) => typeof v !== 'string' && typeof v !== 'number')) return refuse(ctx, value, 'is not of type array.', 'rest_invalid_type');
      if (items.length > max) return refuse(ctx, value, `must contain at most ${max} items.`, 'rest_too_many_items');
      return items.map((v) => String(v).trim().toLowerCase());
    }),
  );
}

/**
 * Term ids as WordPress's `include` and `exclude` take them: a list or a comma-separated string of
 * integers, each refused by its place in the list; read as wp_parse_id_list does (absolute, unique, no 0).
 */
export function wpIdList(max: number) {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      const items = listItems(value);
      if (!items) return refuse(ctx, value, 'is not of type array.', 'rest_invalid_type');
      const ids = items.map((v) => (typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN));
      const bad = ids.findIndex((n) => !Number.isSafeInteger(n));
      if (bad >= 0) return refuse(ctx, value, 'is not of type integer.', 'rest_invalid_type', bad);
      if (items.length > max) return refuse(ctx, value, `must contain at most ${max} items.`, 'rest_too_many_items');
      return [...new Set(ids.map(Math.abs))].filter((n) => n > 0);
    }),
  );
}

/** `include` and `exclude`, described as WordPress describes them. */
const idsArg = (description: string) => ({ schema: wpIdList(LIST_LIMITS.termIds), type: 'array', items: 'integer', maxItems: LIST_LIMITS.termIds, description }) satisfies Arg;

export const WP_CONTEXTS = ['view', 'embed', 'edit'] as const;
export const context = {
  schema: wpEnum(WP_CONTEXTS),
  type: 'string',
  enum: WP_CONTEXTS,
  default: 'view',
  description: 'Scope under which the request is made; determines fields present in response.',
} satisfies Arg;

export const WP_TERM_ORDERBY = ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'] as const;

type OffsetArg = { schema: ReturnType<typeof int>; type: 'integer'; description: string };

/** A category's parent: categories have one, tags none. */
type ParentArg = { schema: ReturnType<typeof int>; type: 'integer'; description: string };
const parentOf = <H extends boolean>(hierarchical: H, description: string) =>
  (hierarchical ? { parent: { schema: int({ min: 0 }), type: 'integer', description } } : {}) as H extends true ? { parent: ParentArg } : Record<never, never>;

const list = <H extends boolean>(hierarchical: H) =>
  ({
    context,
    page: { schema: int({ min: 1 }), type: 'integer', default: 1, description: 'Current page of the collection.' },
    per_page: { schema: between(1, WP_MAX_PER_PAGE), type: 'integer', default: 10, description: 'Maximum number of items to be returned in result set.' },
    search: { schema: str({ max: 200 }), type: 'string', description: 'Limit results to those matching a string.' },
    exclude: idsArg('Ensure result set excludes specific IDs.'),
    include: idsArg('Limit result set to specific IDs.'),
    // WordPress offers an offset for taxonomies without a hierarchy only.
    ...((hierarchical ? {} : { offset: { schema: int(), type: 'integer', description: 'Offset the result set by a specific number of items.' } }) as H extends true
      ? Record<never, never>
      : { offset: OffsetArg }),
    order: { schema: wpEnum(['asc', 'desc'] as const), type: 'string', enum: ['asc', 'desc'], default: 'asc', description: 'Order sort attribute ascending or descending.' },
    orderby: { schema: wpEnum(WP_TERM_ORDERBY), type: 'string', enum: WP_TERM_ORDERBY, default: 'name', description: 'Sort collection by term attribute.' },
    hide_empty: { schema: bool(), type: 'boolean', default: false, description: 'Whether to hide terms not assigned to any posts.' },
    ...parentOf(hierarchical, 'Limit result set to terms assigned to a specific parent.'),
    post: { schema: int({ min: 1 }), type: 'integer', description: 'Limit result set to terms assigned to a specific post.' },
    slug: {
      schema: slugList(LIST_LIMITS.termIds),
      type: 'array',
      items: 'string',
      maxItems: LIST_LIMITS.termIds,
      description: 'Limit result set to terms with one or more specific slugs.',
    },
    ml_language: mlLanguage,
  }) satisfies Args;

const write = <H extends boolean>(hierarchical: H) =>
  ({
    // Saved as WordPress saves term names, for everyone: tags stripped, `& < >` as entities.
    name: { schema: str({ nonEmpty: true, max: 200 }), type: 'string', required: true, description: 'HTML title for the term.', html: { filter: 'termName', always: true } },
    // WordPress filters term descriptions for every user, editors included.
    description: { schema: str(), type: 'string', description: 'HTML description of the term.', html: { filter: 'termDescription', always: true } },
    slug: { schema: str({ max: 200 }), type: 'string', description: 'An alphanumeric identifier for the term unique to its type.' },
    ...parentOf(hierarchical, 'The parent term ID.'),
    ml_language: mlLanguage,
  }) satisfies Args;

const wpTermArgs = <H extends boolean>(hierarchical: H) => ({
  list: list(hierarchical),
  create: write(hierarchical),
  get: { id: pathId, context, ml_language: mlLanguage },
  update: { id: pathId, ...optional(write(hierarchical)) },
  delete: {
    id: pathId,
    force: { schema: bool(), type: 'boolean', default: false, description: 'Required to be true, as terms do not support trashing.' },
    ml_language: mlLanguage,
  } satisfies Args,
});

export const wpCategoryArgs = wpTermArgs(true);
export const wpTagArgs = wpTermArgs(false);
