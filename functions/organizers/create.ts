import { createPlace } from '../../lib/logic/places.js';
import { idempotent } from '../../lib/idempotency.js';
import { HTML_FILTERS } from '../../lib/html-filters.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('organizers.create', (ctx) => createPlace(ctx, 'organizer'), { once: idempotent, html: HTML_FILTERS });
