import { listTecPlaces } from '#lib/logic/tec-v1-reads.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('tecOrganizers.list', (ctx) => listTecPlaces(ctx, 'organizer'));
