import { openApi } from '#lib/logic/doc.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('root.doc', openApi);
