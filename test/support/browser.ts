// Debian's headless Chromium for the browser tests (playwright-core cannot download a browser
// here; .ci/run installs /usr/bin/chromium when it is missing).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
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

/** A fresh profile in headless Chromium; `close` removes it. */
export async function launchChromium(name: string, stepMs = 60_000): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} does not exist: this test drives Debian's Chromium. Install it with ` +
        '`apt-get update && apt-get install -y chromium` (.ci/run does this when it is missing).',
    );
  }
  const profile = mkdtempSync(join(tmpdir(), `${name}-chromium-`));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, timeout: BROWSER_MS });
  context.setDefaultTimeout(stepMs);
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
