import { listWpPosts } from '#lib/logic/wp-post-reads.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('wpEvents.list', (ctx) => listWpPosts(ctx, 'event'));
