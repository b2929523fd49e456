import { updatePlace } from '#lib/logic/places.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle, serves } from '#lib/http/pipeline.js';
import { deletePost } from '#lib/logic/posts.js';
import { readPost } from '#lib/logic/post-reads.js';

export const handler = handle('organizers.update', (ctx) => updatePlace(ctx, 'organizer'), {
  html: HTML_FILTERS,
  overrides: [serves('organizers.get', (ctx) => readPost(ctx, 'organizer')), serves('organizers.delete', (ctx) => deletePost(ctx, 'organizer'))],
});
