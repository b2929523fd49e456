import { createWpTerm } from '#lib/logic/wp-terms.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle, serves } from '#lib/http/pipeline.js';
import { listWpTerms } from '#lib/logic/wp-term-reads.js';

export const handler = handle('wpCategories.create', createWpTerm, { html: HTML_FILTERS, overrides: [serves('wpCategories.list', listWpTerms)] });
