import { tecV1Docs } from '#lib/logic/tec-v1-docs.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('tecV1.docs', tecV1Docs);
