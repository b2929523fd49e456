import { createPlace } from '#lib/logic/places.js';
import { idempotent } from '#lib/http/idempotency.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle, serves } from '#lib/http/pipeline.js';
import { listPlaces } from '#lib/logic/lists.js';

export const handler = handle('organizers.create', (ctx) => createPlace(ctx, 'organizer'), {
  once: idempotent,
  html: HTML_FILTERS,
  overrides: [serves('organizers.list', (ctx) => listPlaces(ctx, 'organizer'))],
});
