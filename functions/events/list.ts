import { listEvents } from '../../lib/logic/event-list.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('events.list', listEvents);
