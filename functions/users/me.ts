import { me } from '#lib/logic/users.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('users.me', me);
