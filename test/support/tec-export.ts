// The live TEC's WordPress export (Tools → Export), as its bytes stream in. export.php answers only
// a signed-in browser (a cookie, not an application password), so this signs in through
// wp-login.php as the admin whose password ../shared/tec-live/setup.sh writes beside the
// application password.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEC } from './live-tec.js';

const ETC = process.env.ETC_DIR ?? join(process.env.TMPDIR ?? '/tmp', 'anchor-wp', 'etc');

/** The cookies a response sets, as a Cookie header's pairs. */
const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';', 1)[0]!);

/** Signs in as the admin through the login form; the Cookie header of the session. */
async function signIn(): Promise<string> {
  const file = join(ETC, 'admin-password.txt');
  if (!existsSync(file)) throw new Error(`The live TEC's admin password is missing: ${file} (set ETC_DIR if it is elsewhere; ../shared/tec-live/setup.sh writes it).`);
  const line = readFileSync(file, 'utf8').trim().split('\n').at(-1)!;
  const colon = line.indexOf(':');
  const [user, password] = [line.slice(0, colon), line.slice(colon + 1)];
  // WordPress refuses a login whose browser did not keep its test cookie.
  const jar = ['wordpress_test_cookie=WP%20Cookie%20check'];
  const res = await fetch(`${TEC}/wp-login.php`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; ') },
    body: new URLSearchParams({ log: user, pwd: password, 'wp-submit': 'Log In', redirect_to: `${TEC}/wp-admin/`, testcookie: '1' }),
  });
  const cookies = [...jar, ...cookiesOf(res)];
  if (res.status !== 302 || !cookies.some((c) => c.startsWith('wordpress_logged_in_'))) {
    throw new Error(`Signing in to the live TEC as ${user} failed (${res.status}): is ${file} current? Rerun ../shared/tec-live/setup.sh.`);
  }
  return cookies.join('; ');
}

/**
 * The export's bytes as they arrive: `content` is export.php's choice (`all`, or a post type such as
 * `tribe_events`).
 */
export async function tecExport(content = 'all'): Promise<AsyncIterable<Uint8Array>> {
  const cookie = await signIn();
  const res = await fetch(`${TEC}/wp-admin/export.php?download=true&content=${encodeURIComponent(content)}`, { headers: { cookie }, redirect: 'manual' });
  const type = res.headers.get('content-type') ?? '';
  if (res.status !== 200 || !type.startsWith('text/xml') || !res.body) {
    throw new Error(`The live TEC's export answered ${res.status} ${type}, not an XML file (${(await res.text()).slice(0, 200)})`);
  }
  return res.body as unknown as AsyncIterable<Uint8Array>;
}
