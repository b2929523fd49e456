import { createEvent } from '../../lib/logic/events.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('events.create', createEvent);
