import { deleteTerm } from '../../lib/logic/terms.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('tags.delete', deleteTerm);
