import { getAppPassword } from '../../lib/logic/users.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('appPasswords.get', getAppPassword);
