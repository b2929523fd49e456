import { createEvent } from '#lib/logic/events.js';
import { idempotent } from '#lib/http/idempotency.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle, serves } from '#lib/http/pipeline.js';
import { listOrFeed } from '#lib/logic/event-feed.js';

export const handler = handle('events.create', createEvent, { once: idempotent, html: HTML_FILTERS, overrides: [serves('events.list', listOrFeed)] });
