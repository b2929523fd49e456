import { createEvent } from '../../lib/logic/events.js';
import { idempotent } from '../../lib/idempotency.js';
import { HTML_FILTERS } from '../../lib/html-filters.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('events.create', createEvent, { once: idempotent, html: HTML_FILTERS });
