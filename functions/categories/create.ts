import { createTerm } from '../../lib/logic/terms.js';
import { idempotent } from '../../lib/idempotency.js';
import { handle } from '../../lib/pipeline.js';

export const handler = handle('categories.create', createTerm, { once: idempotent });
