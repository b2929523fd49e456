import { deleteTecPost } from '#lib/logic/tec-v1-deletes.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('tecOrganizers.delete', (ctx) => deleteTecPost(ctx, 'organizer'));
