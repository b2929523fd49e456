// Makes an application password on the running local server, as a WordPress client's user would
// (POST /{lang}/wp/v2/users/me/application-passwords with their bearer token), and prints
// `login:password` as its last line, ready for `curl -u`.
//   npm run app-password -- --role editor --user alice
import { ROLES, type Role } from '#lib/contract/principal.js';
import { ensureDevKeys, mintToken } from '#lib/local/dev-auth.js';
import { readServerInfo } from '#lib/local/server-info.js';
import { cli } from './cli.js';

const USAGE = `Usage: npm run app-password -- [--role ${ROLES.join('|')}] [--user LOGIN] [--name NAME] [--email ADDRESS] [--url URL]
Creates an application password on the running local server (npm start) and prints
"login:password" as its last line. The password keeps the role the user has now.
  --role    the user's role (default editor)
  --user    the login (default: the subject, local-<role>); the same as npm run token's --user
  --sub     the token subject (default: --user when given, else local-<role>)
  --name    the application's name, unique per user (default: a timestamped one)
  --email   an e-mail address that also works as the login
  --url     the server (default: the running npm start)`;
const c = cli(USAGE, {
  role: { type: 'string', default: 'editor' },
  user: { type: 'string' },
  sub: { type: 'string' },
  name: { type: 'string' },
  email: { type: 'string' },
  url: { type: 'string' },
});
const v = c.values as Record<string, string | undefined>;
const role = v.role!;
if (!(ROLES as readonly string[]).includes(role)) c.fail(`--role must be one of ${ROLES.join(', ')}, got "${role}".`);
if (v.user !== undefined && (v.user.trim() === '' || v.user.includes(':'))) c.fail(`--user must be a login without ":", got "${v.user}".`);
const url = (v.url ?? readServerInfo()?.url)?.replace(/\/+$/, '');
if (!url) c.fail('No local server is running: start one with `npm start` (the password is stored in its data), or give --url.');
const sub = v.sub ?? v.user ?? `local-${role}`;
const login = v.user ?? sub;
const token = await mintToken(await ensureDevKeys(), { role: role as Role, sub, user: login, email: v.email });
const endpoint = `${url}/en/wp/v2/users/me/application-passwords`;
let res: Response;
try {
  res = await fetch(endpoint, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: v.name ?? `npm run app-password ${new Date().toISOString()}` }),
  });
} catch (err) {
  console.error(`Cannot reach ${endpoint}: ${(err as Error).message}. Is npm start running?`);
  process.exit(1);
}
const body = (await res.json().catch(() => ({}))) as { password?: string; uuid?: string; code?: string; message?: string };
if (res.status !== 201 || !body.password) {
  console.error(`The server answered ${res.status}: ${body.code ?? ''} ${body.message ?? ''}`.trim());
  process.exit(1);
}
console.error(`# An application password for "${login}" (${role}), uuid ${body.uuid}. Use it as:`);
console.error(`#   curl -u '${login}:${body.password}' ${url}/en/tribe/events/v1/events`);
console.log(`${login}:${body.password}`);
