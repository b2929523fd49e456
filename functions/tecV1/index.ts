import { namespaceIndex } from '#lib/logic/root.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('tecV1.index', namespaceIndex);
