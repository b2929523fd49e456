import { createAppPasswordFor, deleteAllAppPasswordsOf, listAppPasswords } from '#lib/logic/users.js';
import { handle, serves } from '#lib/http/pipeline.js';

export const handler = handle('appPasswords.create', createAppPasswordFor, {
  overrides: [serves('appPasswords.list', listAppPasswords), serves('appPasswords.deleteAll', deleteAllAppPasswordsOf)],
});
