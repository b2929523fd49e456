import { listPlaces } from '../../lib/logic/lists.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('venues.list', (ctx) => listPlaces(ctx, 'venue'));
