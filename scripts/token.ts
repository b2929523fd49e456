// Prints a bearer token the local server accepts, as the last line of its output.
//   npm run token -- --role editor [--sub alice] [--ttl 1h]
import { parseArgs } from 'node:util';
import { ROLES, type Role } from '../lib/auth.js';
import { ensureDevKeys, mintToken } from '../lib/local/dev-auth.js';

const { values } = parseArgs({
  options: { role: { type: 'string', default: 'editor' }, sub: { type: 'string' }, ttl: { type: 'string', default: '1h' } },
});
if (!(ROLES as readonly string[]).includes(values.role!)) {
  console.error(`--role must be one of ${ROLES.join(', ')}`);
  process.exit(2);
}
const keys = await ensureDevKeys();
const role = values.role as Role;
const token = await mintToken(keys, { role, sub: values.sub, ttl: values.ttl });
console.error(`# ${role} token for subject "${values.sub ?? `local-${role}`}", valid ${values.ttl}. Use it as:`);
console.error('#   curl -H "Authorization: Bearer $TOKEN" ...');
console.log(token);
