import { updateTerm } from '#lib/logic/terms.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('categories.update', updateTerm, { html: HTML_FILTERS });
