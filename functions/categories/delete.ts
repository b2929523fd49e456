import { deleteTerm } from '#lib/logic/terms.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('categories.delete', deleteTerm);
