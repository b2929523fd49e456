import { createPlace } from '#lib/logic/places.js';
import { idempotent } from '#lib/http/idempotency.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle, serves } from '#lib/http/pipeline.js';
import { listPlaces } from '#lib/logic/lists.js';

export const handler = handle('venues.create', (ctx) => createPlace(ctx, 'venue'), {
  once: idempotent,
  html: HTML_FILTERS,
  overrides: [serves('venues.list', (ctx) => listPlaces(ctx, 'venue'))],
});
