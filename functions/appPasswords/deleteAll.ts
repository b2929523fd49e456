import { deleteAllAppPasswordsOf } from '../../lib/logic/users.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('appPasswords.deleteAll', deleteAllAppPasswordsOf);
