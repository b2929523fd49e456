import { namespaceIndex } from '../../lib/logic/root.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('root.index', namespaceIndex);
