import { createTecPost } from '#lib/logic/tec-v1-writes.js';
import { listTecEvents } from '#lib/logic/tec-v1-reads.js';
import { idempotent } from '#lib/http/idempotency.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle, serves } from '#lib/http/pipeline.js';

export const handler = handle('tecEvents.create', (ctx) => createTecPost(ctx, 'event'), {
  once: idempotent,
  html: HTML_FILTERS,
  overrides: [serves('tecEvents.list', listTecEvents)],
});
