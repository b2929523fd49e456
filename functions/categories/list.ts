import { listTerms } from '../../lib/logic/lists.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('categories.list', (ctx) => listTerms(ctx, 'category'));
