import { readPost } from '../../lib/logic/posts.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('organizers.getBySlug', (ctx) => readPost(ctx, 'organizer'));
