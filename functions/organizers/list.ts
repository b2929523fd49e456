import { listPlaces } from '../../lib/logic/lists.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('organizers.list', (ctx) => listPlaces(ctx, 'organizer'));
