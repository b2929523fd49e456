import { updateEvent } from '../../lib/logic/events.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('events.update', updateEvent);
