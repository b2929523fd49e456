import { readWpTerm } from '#lib/logic/wp-term-reads.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('wpTags.get', readWpTerm);
