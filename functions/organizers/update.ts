import { updatePlace } from '../../lib/logic/places.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('organizers.update', (ctx) => updatePlace(ctx, 'organizer'));
