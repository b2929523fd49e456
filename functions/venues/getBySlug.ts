import { readPost } from '#lib/logic/post-reads.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('venues.getBySlug', (ctx) => readPost(ctx, 'venue'));
