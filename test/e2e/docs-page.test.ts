// The local server's API reference at /docs: the page and its files over HTTP (types, caching,
// no path traversal, the API's routing left as it was), then in headless Chromium driven by
// playwright-core: Swagger UI renders the operations from the server's OpenAPI document, and
// "Try it out" reaches the same server. Chromium is Debian's (/usr/bin/chromium; .ci/run installs
// it): without it these tests fail, they do not skip.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { BrowserContext, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../lib/config.js';
import { BROWSER_MS, launchChromium, type Browser } from '../support/browser.js';
import { useGateway } from '../support/gateway.js';

const STEP_MS = 60_000;

const NO_ROUTE = '{"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}}';
const UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** One request with the path sent exactly as given (fetch would normalize `..` away). */
function rawGet(origin: string, path: string, method = 'GET'): Promise<{ status: number; type: string; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((ok, fail) => {
    const req = request({ host: hostname, port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
    });
    req.on('error', fail);
    req.end();
  });
}

const gw = useGateway();

describe('GET /docs over HTTP', () => {
  it('serves the page at /docs and /docs/, pointing at the English document by default', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await fetch(gw.abs(path));
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy'), path).toContain("connect-src 'self'");
      const html = await res.text();
      expect(html).toContain('data-spec-url="/en/tribe/events/v1/doc"');
      expect(html).toContain('src="/docs/assets/swagger-ui-bundle.js"');
      expect(html).toContain('href="/docs/assets/swagger-ui.css"');
      // Nothing from a CDN: every address on the page is on this server.
      expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    }
  });

  it('picks the language with ?lang= and refuses an unknown one', async () => {
    const ru = await fetch(gw.abs('/docs?lang=ru'));
    expect(ru.status).toBe(200);
    expect(await ru.text()).toContain('data-spec-url="/ru/tribe/events/v1/doc"');
    const xx = await fetch(gw.abs('/docs?lang=xx'));
    expect(xx.status).toBe(400);
    expect(await xx.text()).toContain('Unknown language "xx"');
  });

  it("serves Swagger UI's files from node_modules with their content types, and 304 while unchanged", async () => {
    const files: [string, string][] = [
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['favicon-32x32.png', 'image/png'],
      ['oauth2-redirect.html', 'text/html; charset=utf-8'],
    ];
    for (const [name, type] of files) {
      const res = await fetch(gw.abs(`/docs/assets/${name}`));
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type'), name).toBe(type);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(UI_DIR, name))), name).toBe(true);
      const etag = res.headers.get('etag');
      expect(etag, name).toBeTruthy();
      const again = await fetch(gw.abs(`/docs/assets/${name}`), { headers: { 'if-none-match': etag! } });
      expect(again.status, name).toBe(304);
    }
    const head = await fetch(gw.abs('/docs/assets/swagger-ui.css'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(readFileSync(join(UI_DIR, 'swagger-ui.css')).length));
    expect(await head.text()).toBe('');
  });

  it('refuses paths that leave the folder, and files that are not there', async () => {
    for (const path of [
      '/docs/assets/../../package.json',
      '/docs/assets/../../../package.json',
      '/docs/assets/..%2f..%2f..%2fpackage.json',
      '/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/docs/assets/..%5c..%5cpackage.json',
      '/docs/assets/%2fetc%2fpasswd',
      '/docs/assets//etc/passwd',
      '/docs/assets/package.json',
      '/docs/assets/nothing.js',
      '/docs/assets/',
      '/docs/assets/%00.js',
    ]) {
      const res = await rawGet(gw.origin, path);
      expect([400, 404], path).toContain(res.status);
      expect(res.type, path).toBe('text/plain; charset=utf-8');
      expect(res.body, path).not.toContain('"name"');
      expect(res.body, path).not.toContain('root:');
    }
    const bad = await rawGet(gw.origin, '/docs/assets/%E0%A4%A');
    expect(bad.status).toBe(400);
  });

  it('leaves every other path and method to the API routing', async () => {
    for (const [method, path] of [
      ['GET', '/nothing/here'],
      ['GET', '/docs/other'],
      ['GET', '/docsx'],
      ['GET', '/docs/../package.json'],
      ['POST', '/docs'],
      ['DELETE', '/docs/assets/swagger-ui.css'],
    ] as const) {
      const res = await rawGet(gw.origin, path, method);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body, `${method} ${path}`).toBe(NO_ROUTE);
    }
    expect((await gw.api('GET', '/events')).status).toBe(200);
  });
});

describe('the /docs page in headless Chromium', () => {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    browser = await launchChromium('docs-page', STEP_MS);
    context = browser.context;
  }, BROWSER_MS + 30_000);

  afterAll(async () => {
    await browser?.close();
  }, 60_000);

  /** A new tab that records every request it makes, and its script errors and CSP reports. */
  async function open(path: string): Promise<{ page: Page; requests: string[]; problems: string[] }> {
    const page = await context!.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    await page.goto(gw.abs(path));
    return { page, requests, problems };
  }

  /** The operation block of `method path` (Swagger UI puts the path in data-path). */
  function operation(page: Page, method: string, path: string): Locator {
    return page
      .locator(`.opblock.opblock-${method.toLowerCase()}`, { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) })
      .first();
  }

  /** Expands the operation, presses "Try it out" and "Execute"; returns the network response and the status shown. */
  async function tryItOut(page: Page, op: Locator, apiPath: string): Promise<{ response: Response; shown: string }> {
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    const seen = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === apiPath);
    await op.getByRole('button', { name: 'Execute' }).click();
    const response = await seen;
    const status = op.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ state: 'visible' });
    return { response, shown: (await status.innerText()).trim() };
  }

  function outside(requests: string[]): string[] {
    return requests.filter((u) => !u.startsWith(`${gw.origin}/`) && !/^(data|blob):/.test(u));
  }

  it(
    'renders the operations and runs GET /events with "Try it out"',
    async () => {
      const { page, requests, problems } = await open('/docs');
      await page.locator('.opblock').first().waitFor({ state: 'visible' });
      for (const [method, path] of [
        ['GET', '/events'],
        ['POST', '/events'],
        ['GET', '/events/{id}'],
        ['GET', '/categories'],
        ['GET', '/venues'],
      ]) {
        const op = operation(page, method!, path!);
        expect(await op.isVisible(), `${method} ${path}`).toBe(true);
        expect(await op.locator('.opblock-summary-method').innerText(), `${method} ${path}`).toBe(method);
      }
      expect(requests).toContain(gw.abs('/en/tribe/events/v1/doc'));

      const { response, shown } = await tryItOut(page, operation(page, 'GET', '/events'), '/en/tribe/events/v1/events');
      expect(response.status()).toBe(200);
      expect(response.url().startsWith(`${gw.origin}/en/tribe/events/v1/events`)).toBe(true);
      expect(shown).toBe('200');
      expect(await page.locator('.live-responses-table').first().innerText()).toContain('"events"');

      expect(outside(requests), 'requests that left the server').toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_MS,
  );

  it(
    'uses ?lang= and sends "Try it out" to the serving origin even when SITE_URL names another host',
    async () => {
      const siteUrl = process.env.SITE_URL;
      process.env.SITE_URL = 'http://api.example.invalid';
      resetConfig();
      try {
        const { page, requests, problems } = await open('/docs?lang=ru');
        await operation(page, 'GET', '/categories').waitFor({ state: 'visible' });
        expect(requests).toContain(gw.abs('/ru/tribe/events/v1/doc'));
        const { response, shown } = await tryItOut(page, operation(page, 'GET', '/categories'), '/ru/tribe/events/v1/categories');
        expect(response.status()).toBe(200);
        expect(response.url().startsWith(`${gw.origin}/ru/tribe/events/v1/categories`)).toBe(true);
        expect(shown).toBe('200');
        expect(outside(requests), 'requests that left the server').toEqual([]);
        expect(problems).toEqual([]);
        await page.close();
      } finally {
        process.env.SITE_URL = siteUrl;
        resetConfig();
      }
    },
    BROWSER_MS,
  );
});
