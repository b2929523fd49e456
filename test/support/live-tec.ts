// The live TEC that `npm run test:tec` compares with (WordPress + The Events Calendar on
// 127.0.0.1:8080, or TEC_URL), started by ../shared/tec-live/setup.sh, which also writes an
// admin's application password.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TEC = (process.env.TEC_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const ETC = process.env.ETC_DIR ?? join(process.env.TMPDIR ?? '/tmp', 'anchor-wp', 'etc');
const START = 'Start it with `sudo bash ../shared/tec-live/setup.sh` from the project root (as root, without sudo); ../shared/tec-live/README.md says more.';

/** The live site's address and an admin's HTTP Basic credentials, or a clear error saying what is missing. */
export async function liveTec(): Promise<{ auth: string; name: string; credentials: string }> {
  let name: string;
  try {
    const res = await fetch(`${TEC}/wp-json/`, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`it answers ${res.status}`);
    name = ((await res.json()) as { name: string }).name;
    const tec = await fetch(`${TEC}/wp-json/tribe/events/v1/`, { signal: AbortSignal.timeout(5_000) });
    if (!tec.ok) throw new Error(`its TEC namespace answers ${tec.status}`);
  } catch (err) {
    throw new Error(`The live TEC is not reachable at ${TEC} (${(err as Error).message}). ${START}`);
  }
  const file = join(ETC, 'app-password.txt');
  if (!existsSync(file)) throw new Error(`The live TEC's application password is missing: ${file} (set ETC_DIR if it is elsewhere). ${START}`);
  const login = readFileSync(file, 'utf8').trim().split('\n').at(-1)!;
  return { auth: `Basic ${Buffer.from(login).toString('base64')}`, name, credentials: login };
}

/** Creates a record on the live site (a path under `/wp-json`) as the admin; its JSON, or an error saying why not. */
export async function postToTec<T = Record<string, unknown>>(auth: string, path: string, body: object): Promise<T> {
  const res = await fetch(`${TEC}/wp-json${path}`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as T;
  if (res.status !== 201 && res.status !== 200) throw new Error(`The live TEC refused POST ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}
