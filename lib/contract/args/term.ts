// Category and tag arguments (docs/tec-behaviour.md §4.3, §6.3).
import { bool, idList, int, listArg, oneOf, str, type Args } from '#lib/contract/params.js';
import { LIST_LIMITS } from '#lib/contract/budget.js';
import { mlLanguage, optional, pagingArgs, pathId } from './common.js';

const termWrite = <H extends boolean>(hierarchical: H) =>
  ({
    // Saved as WordPress saves term names, for everyone: tags stripped, `& < >` as entities.
    name: { schema: str({ nonEmpty: true, notZero: true, max: 200 }), type: 'string', required: true, description: 'The term name', html: { filter: 'termName', always: true } },
    // WordPress filters term descriptions for every user, editors included.
    description: { schema: str({ nonEmpty: true, notZero: true }), type: 'string', description: 'The term description', html: { filter: 'termDescription', always: true } },
    slug: { schema: str({ nonEmpty: true, max: 200 }), type: 'string', description: 'The term slug' },
    ...((hierarchical ? { parent: { schema: int({ min: 0 }), type: 'integer', description: 'The parent category id' } } : {}) as H extends true
      ? { parent: ParentArg }
      : Record<never, never>),
    ml_language: mlLanguage,
  }) satisfies Args;

/** A category's parent: categories have one, tags none. */
type ParentArg = { schema: ReturnType<typeof int>; type: 'integer'; description: string };

export const TERM_ORDERBY = ['name', 'id', 'slug', 'count', 'description'] as const;

const termList = <H extends boolean>(hierarchical: H) =>
  ({
    ...pagingArgs('terms'),
    search: { schema: str({ nonEmpty: true, max: 200 }), type: 'string', description: 'Limit results to terms matching the string' },
    exclude: listArg(idList, LIST_LIMITS.termIds, 'Exclude these term ids'),
    include: listArg(idList, LIST_LIMITS.termIds, 'Limit results to these term ids'),
    order: { schema: oneOf(['asc', 'desc'] as const), type: 'string', enum: ['asc', 'desc'], description: 'Sort ascending or descending' },
    orderby: { schema: oneOf(TERM_ORDERBY), type: 'string', enum: TERM_ORDERBY, description: 'Term attribute to sort by' },
    hide_empty: { schema: bool(), type: 'boolean', default: true, description: 'Hide terms not assigned to any published event' },
    ...((hierarchical ? { parent: { schema: int({ min: 0 }), type: 'integer', description: 'Limit results to children of this category' } } : {}) as H extends true
      ? { parent: ParentArg }
      : Record<never, never>),
    post: { schema: int({ min: 1 }), type: 'integer', description: 'Limit results to terms assigned to this event' },
    event: { schema: int({ min: 1 }), type: 'integer', description: 'Alias of post; wins when both are given' },
    slug: { schema: str({ nonEmpty: true, max: 200 }), type: 'string', description: 'Limit results to the term with this slug' },
    ml_language: mlLanguage,
  }) satisfies Args;

const termArgs = <H extends boolean>(hierarchical: H) => ({
  list: termList(hierarchical),
  create: termWrite(hierarchical),
  get: { id: pathId, ml_language: mlLanguage },
  update: { id: pathId, ...optional(termWrite(hierarchical)) },
  delete: { id: pathId, ml_language: mlLanguage },
});

export const categoryArgs = termArgs(true);
export const tagArgs = termArgs(false);
