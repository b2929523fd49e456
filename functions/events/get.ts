import { readPost } from '../../lib/logic/posts.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('events.get', (ctx) => readPost(ctx, 'event'));
