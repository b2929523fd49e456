// The arguments of `GET /changes`, the change log's reader (lib/logic/changes.ts).
import { str, type Args } from '#lib/contract/params.js';
import { mlLanguage } from './common.js';
import { between } from './wp-term.js';

/** The most changes one page holds. */
export const CHANGES_MAX_PER_PAGE = 1000;
export const CHANGES_PER_PAGE = 100;

export const changeArgs = {
  list: {
    since: {
      schema: str(),
      type: 'string',
      description: 'A cursor this route answered as `next`: the changes after it. Without one, no changes and a cursor for now',
    },
    per_page: {
      schema: between(1, CHANGES_MAX_PER_PAGE),
      type: 'integer',
      default: CHANGES_PER_PAGE,
      description: `The most changes to return (1 to ${CHANGES_MAX_PER_PAGE})`,
    },
    ml_language: mlLanguage,
  },
} satisfies Record<string, Args>;
