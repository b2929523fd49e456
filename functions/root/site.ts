import { siteIndex } from '#lib/logic/root.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('root.site', siteIndex);
