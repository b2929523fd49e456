import { listTerms } from '../../lib/logic/lists.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('tags.list', (ctx) => listTerms(ctx, 'tag'));
