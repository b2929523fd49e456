import { createAppPasswordFor } from '../../lib/logic/users.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('appPasswords.create', createAppPasswordFor);
