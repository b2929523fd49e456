import { readWpPost } from '#lib/logic/wp-post-reads.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('wpVenues.get', (ctx) => readWpPost(ctx, 'venue'));
