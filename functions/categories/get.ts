import { readTerm } from '../../lib/logic/terms.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('categories.get', readTerm);
