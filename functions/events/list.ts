import { listEvents } from '../../lib/logic/lists.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('events.list', listEvents);
