import { listAppPasswords } from '#lib/logic/users.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('appPasswords.list', listAppPasswords);
