import { updateTerm, deleteTerm } from '#lib/logic/terms.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle, serves } from '#lib/http/pipeline.js';
import { readTerm } from '#lib/logic/term-reads.js';

export const handler = handle('categories.update', updateTerm, { html: HTML_FILTERS, overrides: [serves('categories.get', readTerm), serves('categories.delete', deleteTerm)] });
