import { deletePost } from '../../lib/logic/posts.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('venues.deleteBySlug', (ctx) => deletePost(ctx, 'venue'));
