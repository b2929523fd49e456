import { listTerms } from '#lib/logic/lists.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('tags.list', (ctx) => listTerms(ctx, 'tag'));
