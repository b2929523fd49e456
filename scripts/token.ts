// Prints a bearer token the local server accepts, as the last line of its output.
//   npm run token -- --role editor [--sub alice] [--ttl 1h]
import { ROLES, type Role } from '#lib/contract/principal.js';
import { ensureDevKeys, mintToken } from '#lib/local/dev-auth.js';
import { cli } from './cli.js';

const USAGE = `Usage: npm run token -- [--role ${ROLES.join('|')}] [--user LOGIN] [--sub SUBJECT] [--ttl 1h]
Prints a bearer token of the local development issuer as its last line.
  --role   the user's role (default editor)
  --user   the login (the token's username claim; the login of HTTP Basic); default: the subject
  --sub    the token subject, one per user (default: --user when given, else local-<role>)
  --email  an e-mail claim (it also works as the login of application passwords)
  --ttl    how long it is valid: a number and s, m, h, d or w (default 1h; at most 365d)`;
const c = cli(USAGE, {
  role: { type: 'string', default: 'editor' },
  user: { type: 'string' },
  sub: { type: 'string' },
  email: { type: 'string' },
  ttl: { type: 'string', default: '1h' },
});
const role = c.values.role as string;
const user = c.values.user as string | undefined;
const sub = (c.values.sub as string | undefined) ?? user;
const email = c.values.email as string | undefined;
const ttl = String(c.values.ttl);
if (!(ROLES as readonly string[]).includes(role)) c.fail(`--role must be one of ${ROLES.join(', ')}, got "${role}".`);
const TTL = /^(\d+)\s*(s|m|h|d|w)$/;
const UNIT_S: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
const ttlMatch = TTL.exec(ttl.trim());
if (!ttlMatch || Number(ttlMatch[1]) < 1) c.fail(`--ttl must be a number and a unit (s, m, h, d or w), such as 8h or 7d; got "${ttl}".`);
if (Number(ttlMatch![1]) * UNIT_S[ttlMatch![2]!]! > 365 * 86_400) c.fail(`--ttl may be at most 365d (a token that never expires is never right); got "${ttl}".`);
const keys = await ensureDevKeys();
const token = await mintToken(keys, { role: role as Role, sub, user, email, ttl: ttl.trim() });
console.error(`# ${role} token for subject "${sub ?? `local-${role}`}"${user ? ` (login ${user})` : ''}, valid ${ttl}. Use it as:`);
console.error('#   curl -H "Authorization: Bearer $TOKEN" ...');
console.log(token);
