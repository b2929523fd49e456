import { readWpPost } from '#lib/logic/wp-post-reads.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('wpEvents.get', (ctx) => readWpPost(ctx, 'event'));
