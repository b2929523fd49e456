import { listEvents } from '#lib/logic/event-list.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('events.list', listEvents);
