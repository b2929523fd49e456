import { createWpTerm } from '#lib/logic/wp-terms.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('wpTags.create', createWpTerm, { html: HTML_FILTERS });
