import { updateTecPost } from '#lib/logic/tec-v1-writes.js';
import { HTML_FILTERS } from '#lib/contract/html-filters.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('tecOrganizers.update', (ctx) => updateTecPost(ctx, 'organizer'), { html: HTML_FILTERS });
