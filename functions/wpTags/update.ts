import { updateWpTerm, deleteWpTerm } from '#lib/logic/wp-terms.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle, serves } from '#lib/http/pipeline.js';
import { readWpTerm } from '#lib/logic/wp-term-reads.js';

export const handler = handle('wpTags.update', updateWpTerm, { html: HTML_FILTERS, overrides: [serves('wpTags.get', readWpTerm), serves('wpTags.delete', deleteWpTerm)] });
