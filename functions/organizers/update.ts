import { updatePlace } from '#lib/logic/places.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('organizers.update', (ctx) => updatePlace(ctx, 'organizer'), { html: HTML_FILTERS });
