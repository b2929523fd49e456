import { updateTecPost } from '#lib/logic/tec-v1-writes.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('tecVenues.update', (ctx) => updateTecPost(ctx, 'venue'), { html: HTML_FILTERS });
