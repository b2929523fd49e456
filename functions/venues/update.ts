import { updatePlace } from '../../lib/logic/places.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('venues.update', (ctx) => updatePlace(ctx, 'venue'));
