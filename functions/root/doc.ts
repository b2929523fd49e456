import { openApi } from '../../lib/logic/doc.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('root.doc', openApi);
