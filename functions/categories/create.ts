import { createTerm } from '../../lib/logic/terms.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('categories.create', createTerm);
