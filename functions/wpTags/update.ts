import { updateWpTerm } from '#lib/logic/wp-terms.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('wpTags.update', updateWpTerm, { html: HTML_FILTERS });
