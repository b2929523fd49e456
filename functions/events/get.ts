import { readEvent } from '#lib/logic/event-feed.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('events.get', readEvent);
