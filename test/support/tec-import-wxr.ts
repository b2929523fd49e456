// WordPress's own importer run on the live TEC (../shared/tec-live/import-wxr.sh): the oracle for
// an export file, what TEC holds after WordPress imported it.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** WordPress's importer beside the live site's setup (TEC_LIVE_DIR, as .ci/run finds it, else beside the project). */
const IMPORT_WXR = resolve(process.env.TEC_LIVE_DIR ?? join(import.meta.dirname, '../../../shared/tec-live'), 'import-wxr.sh');

/**
 * Runs WordPress's importer on the live site over an export's text; the old → new post ids. It
 * runs aside, so that connections the site closes meanwhile are seen closed, not used again.
 */
export async function importIntoTec(text: string, name = 'export.xml'): Promise<Map<number, number>> {
  if (!existsSync(IMPORT_WXR)) throw new Error(`WordPress's importer script is not at ${IMPORT_WXR}: set TEC_LIVE_DIR to the folder of ../shared/tec-live/setup.sh.`);
  // WordPress's importer runs as the web server's user, who must be able to read the file.
  const dir = mkdtempSync(join(tmpdir(), 'tec-import-'));
  chmodSync(dir, 0o755);
  const file = join(dir, name);
  writeFileSync(file, text);
  const [cmd, args] = process.getuid?.() === 0 ? ['bash', [IMPORT_WXR, file]] : ['sudo', ['bash', IMPORT_WXR, file]];
  const { stdout } = await promisify(execFile)(cmd, args as string[], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const out = JSON.parse(stdout) as { posts: Record<string, number> };
  return new Map(Object.entries(out.posts).map(([o, n]) => [Number(o), Number(n)]));
}
