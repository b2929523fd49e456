import { updateTerm } from '../../lib/logic/terms.js';
import { HTML_FILTERS } from '../../lib/html-filters.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('tags.update', updateTerm, { html: HTML_FILTERS });
