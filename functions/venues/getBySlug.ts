import { readPost } from '../../lib/logic/posts.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('venues.getBySlug', (ctx) => readPost(ctx, 'venue'));
