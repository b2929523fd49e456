import { createTerm } from '#lib/logic/terms.js';
import { idempotent } from '#lib/http/idempotency.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle, serves } from '#lib/http/pipeline.js';
import { listTerms } from '#lib/logic/lists.js';

export const handler = handle('categories.create', createTerm, {
  once: idempotent,
  html: HTML_FILTERS,
  overrides: [serves('categories.list', (ctx) => listTerms(ctx, 'category'))],
});
