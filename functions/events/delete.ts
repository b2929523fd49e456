import { deletePost } from '#lib/logic/posts.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('events.delete', (ctx) => deletePost(ctx, 'event'));
