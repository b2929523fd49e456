import { updatePlace } from '#lib/logic/places.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle, serves } from '#lib/http/pipeline.js';
import { deletePost } from '#lib/logic/posts.js';
import { readPost } from '#lib/logic/post-reads.js';

export const handler = handle('venues.update', (ctx) => updatePlace(ctx, 'venue'), {
  html: HTML_FILTERS,
  overrides: [serves('venues.get', (ctx) => readPost(ctx, 'venue')), serves('venues.delete', (ctx) => deletePost(ctx, 'venue'))],
});
