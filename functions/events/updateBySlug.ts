import { updateEvent } from '#lib/logic/events.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('events.updateBySlug', updateEvent, { html: HTML_FILTERS });
