import { deleteWpTerm } from '#lib/logic/wp-terms.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('wpCategories.delete', deleteWpTerm);
