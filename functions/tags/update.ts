import { updateTerm } from '../../lib/logic/terms.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('tags.update', updateTerm);
