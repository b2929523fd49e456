import { readTerm } from '#lib/logic/term-reads.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('tags.get', readTerm);
