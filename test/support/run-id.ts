// A word unique to this test run, for names and users that must not meet those of other files or runs.
import { randomBytes } from 'node:crypto';

export const RUN = randomBytes(3).toString('hex');
