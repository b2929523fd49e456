import { updatePlace } from '../../lib/logic/places.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('venues.updateBySlug', (ctx) => updatePlace(ctx, 'venue'));
