import { updateEvent } from '#lib/logic/events.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle, serves } from '#lib/http/pipeline.js';
import { deletePost } from '#lib/logic/posts.js';
import { readEvent } from '#lib/logic/event-feed.js';

export const handler = handle('events.updateBySlug', updateEvent, {
  html: HTML_FILTERS,
  overrides: [serves('events.getBySlug', readEvent), serves('events.deleteBySlug', (ctx) => deletePost(ctx, 'event'))],
});
