import { createTerm } from '../../lib/logic/terms.js';
import { idempotent } from '../../lib/idempotency.js';
import { HTML_FILTERS } from '../../lib/html-filters.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('tags.create', createTerm, { once: idempotent, html: HTML_FILTERS });
