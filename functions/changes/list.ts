import { listChanges } from '#lib/logic/changes.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('changes.list', listChanges);
