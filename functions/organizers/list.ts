import { listPlaces } from '#lib/logic/lists.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('organizers.list', (ctx) => listPlaces(ctx, 'organizer'));
