// Headless Chromium for the browser tests, driven by playwright-core (which cannot download a
// browser here). The system's /usr/bin/chromium when there is one (Debian's), else the headless
// Chromium that the @sparticuz/chromium package ships for Linux x64: it is brotli-compressed in
// node_modules, so it is unpacked once per version into node_modules/.cache, with the NSS and
// expat libraries and the fonts it comes with, and needs nothing installed on the machine.
// TEST_CHROMIUM chooses instead: `bundled` for the package's, or the path of a Chromium.
import { execFileSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { brotliDecompressSync, createBrotliDecompress } from 'node:zlib';
import { chromium, type BrowserContext } from 'playwright-core';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Browser start-up on a busy 2-core machine. */
export const BROWSER_MS = 120_000;

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A Chromium to launch, and the environment it runs in. */
interface Executable {
  path: string;
  env?: Record<string, string>;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Unpacks a `.tar.br` of the package into `dir`, with the system's tar (the package's tar library is not a dependency of ours). */
function untar(file: string, dir: string): void {
  const tarball = join(dir, 'unpacking.tar');
  writeFileSync(tarball, brotliDecompressSync(readFileSync(file)));
  execFileSync('tar', ['-xf', tarball, '-C', dir, '--no-same-owner']);
  rmSync(tarball);
}

/**
 * The package's Chromium, unpacked on first use. Test files run in parallel workers: each unpacks
 * into a folder of its own and renames it into place, so that none ever sees half a browser.
 */
async function bundledChromium(): Promise<Executable> {
  if (platform() !== 'linux' || arch() !== 'x64') {
    throw new Error(`No ${SYSTEM_CHROMIUM}, and @sparticuz/chromium's browser is for Linux x64 only: set TEST_CHROMIUM to the path of a Chromium.`);
  }
  const require = createRequire(import.meta.url);
  const pkg = join(dirname(require.resolve('@sparticuz/chromium')), '..', '..');
  const bin = join(pkg, 'bin');
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
  const cache = join(pkg, '..', '..', '.cache');
  const dir = join(cache, `sparticuz-chromium-${version}`);
  if (!existsSync(dir)) {
    mkdirSync(cache, { recursive: true });
    const work = mkdtempSync(`${dir}.partial-`);
    try {
      await pipeline(createReadStream(join(bin, 'chromium.br')), createBrotliDecompress(), createWriteStream(join(work, 'chromium'), { mode: 0o755 }));
      untar(join(bin, 'al2023.tar.br'), work);
      untar(join(bin, 'fonts.tar.br'), work);
      // The package's fonts.conf names Lambda's folders: this one names the fonts unpacked here.
      writeFileSync(
        join(work, 'fonts.conf'),
        `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n  <dir>${dir}/fonts</dir>\n  <cachedir>${dir}/fonts-cache</cachedir>\n</fontconfig>\n`,
      );
      chmodSync(work, 0o755);
      renameSync(work, dir);
    } catch (err) {
      rmSync(work, { recursive: true, force: true });
      // Another worker got there first.
      if (!existsSync(join(dir, 'chromium'))) throw err;
    }
  }
  // Its own libraries first, whether or not the machine has some: one set, tried and tested.
  const libs = [join(dir, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return { path: join(dir, 'chromium'), env: { ...(process.env as Record<string, string>), LD_LIBRARY_PATH: libs, FONTCONFIG_FILE: join(dir, 'fonts.conf') } };
}

/** TEST_CHROMIUM's choice, else the system's Chromium, else the package's. */
async function findChromium(): Promise<Executable> {
  const chosen = process.env.TEST_CHROMIUM;
  if (chosen === 'bundled') return bundledChromium();
  if (chosen) {
    if (!executable(chosen)) throw new Error(`TEST_CHROMIUM=${chosen}: no browser there (give the path of a Chromium, or \`bundled\`).`);
    return { path: chosen };
  }
  return executable(SYSTEM_CHROMIUM) ? { path: SYSTEM_CHROMIUM } : bundledChromium();
}

/** A fresh profile in headless Chromium; `close` removes it. */
export async function launchChromium(name: string, stepMs = 60_000): Promise<Browser> {
  const { path, env } = await findChromium();
  const profile = mkdtempSync(join(tmpdir(), `${name}-chromium-`));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: path,
    headless: true,
    args: CHROMIUM_FLAGS,
    timeout: BROWSER_MS,
    ...(env ? { env } : {}),
  });
  context.setDefaultTimeout(stepMs);
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
