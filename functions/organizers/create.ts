import { createPlace } from '#lib/logic/places.js';
import { idempotent } from '#lib/http/idempotency.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('organizers.create', (ctx) => createPlace(ctx, 'organizer'), { once: idempotent, html: HTML_FILTERS });
