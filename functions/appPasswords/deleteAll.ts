import { deleteAllAppPasswordsOf } from '#lib/logic/users.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('appPasswords.deleteAll', deleteAllAppPasswordsOf);
