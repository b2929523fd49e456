import { me } from '../../lib/logic/users.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('users.me', me);
