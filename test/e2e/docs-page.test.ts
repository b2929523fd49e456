// The local server's API reference at /docs: the page and its files over HTTP (types, caching,
// no path traversal, the API's routing left as it was), the document's examples against the demo
// calendar, then in headless Chromium driven by playwright-core: Swagger UI renders the operations
// from the server's OpenAPI document, shows a lock on writes only, and "Try it out" (authorized
// in its dialog, with the prefilled examples) reaches the same server, WordPress's routes
// included. The browser is the system's Chromium, or else the one the @sparticuz/chromium package
// ships (test/support/browser.ts): these tests never skip.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { BrowserContext, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { seedDemo } from '#lib/local/seed.js';
import { DEMO_RECORDS } from '#lib/docs/examples.js';
import { BROWSER_MS, launchChromium, type Browser } from '../support/browser.js';
import { useGateway } from '../support/gateway.js';
import { NO_ROUTE } from '../support/expect.js';

type Json = Record<string, any>;

const STEP_MS = 60_000;

const NO_ROUTE_BODY = JSON.stringify(NO_ROUTE);
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

// The demo calendar the examples name (its first records get the ids DEMO_RECORDS gives).
beforeAll(async () => {
  // Webhooks may target this machine, as under `npm start` (the examples' create subscribes one).
  process.env.WEBHOOK_LOCAL_TARGETS = '1';
  resetConfig();
  await seedDemo(12);
}, 180_000);
afterAll(() => {
  delete process.env.WEBHOOK_LOCAL_TARGETS;
  resetConfig();
});

/** Follows a local `$ref` of the document. */
function deref(d: Json, value: Json): Json {
  if (!value?.$ref) return value;
  const [, , section, name] = String(value.$ref).split('/');
  return deref(d, d.components[section!][name!]);
}

interface ExampleRequest {
  op: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Json;
}

/**
 * Every operation and method of the document as "Try it out" sends it untouched: path variables
 * from their examples, query parameters with an example or a default (Swagger UI fills those
 * in), the JSON body's example, to the path item's server or else the document's.
 */
function exampleRequests(d: Json): ExampleRequest[] {
  const out: ExampleRequest[] = [];
  for (const [path, item] of Object.entries<Json>(d.paths)) {
    const server = String(item.servers?.[0]?.url ?? d.servers[0].url).replace(/\/$/, '');
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const o = item[method];
      if (!o) continue;
      let target = path;
      const query = new URLSearchParams();
      const headers: Record<string, string> = {};
      for (const p of (o.parameters ?? []) as Json[]) {
        const value = p.example ?? p.schema?.example ?? p.schema?.default;
        if (p.in === 'path') {
          expect(value, `${method} ${path}: example of {${p.name}}`).toBeDefined();
          target = target.replace(`{${p.name}}`, encodeURIComponent(String(value)));
        } else if (p.in === 'header') {
          // Swagger UI sends a header it has a value for; a required one must have it.
          if (p.required) expect(value, `${method} ${path}: example of header ${p.name}`).toBeDefined();
          if (p.required && value !== undefined) headers[p.name] = String(value);
        } else if (value !== undefined) query.append(p.name, String(value));
      }
      const body = o.requestBody ? deref(d, o.requestBody).content['application/json'].example : undefined;
      if (o.requestBody) expect(body, `${method} ${path}: example body`).toBeDefined();
      out.push({
        op: String(o.operationId).split('.').slice(0, 2).join('.'),
        method: method.toUpperCase(),
        url: `${server}${target}${query.size ? `?${query}` : ''}`,
        headers,
        ...(body ? { body } : {}),
      });
    }
  }
  return out;
}

/** Reads first, then creates, updates, the password introspection, and deletes (each undone when it can be). */
function phase(r: ExampleRequest): number {
  if (r.op === 'appPasswords.introspect') return 3;
  if (r.method === 'GET') return 0;
  if (r.op.endsWith('.create')) return 1;
  if (r.method !== 'DELETE') return 2;
  // WordPress's term deletes (refused without force) while the demo terms are still there.
  if (/^wp(?:Tags|Categories)\./.test(r.op)) return 3;
  return r.op === 'appPasswords.deleteAll' ? 5 : 4;
}

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
      expect(res.body, `${method} ${path}`).toBe(NO_ROUTE_BODY);
    }
    expect((await gw.api('GET', '/events')).status).toBe(200);
  });
});

describe("the document's examples", () => {
  it('succeed against the demo calendar, every operation and method, as "Try it out" sends them', { timeout: 120_000 }, async () => {
    const d = (await gw.api('GET', '/doc')).body as Json;
    const requests = exampleRequests(d).sort((a, b) => phase(a) - phase(b));
    const documented = new Set(requests.map((r) => r.op));
    expect(documented.size).toBeGreaterThan(40);
    const bearer = `Bearer ${await gw.token('editor')}`;
    let basic: string | undefined;
    for (const r of requests) {
      // The example's public URL must resolve when subscribed; a machine without DNS subscribes a loopback
      // one, which the local runtime allows.
      if (r.op === 'webhooks.create') r.body = { ...(r.body as Json), url: 'http://127.0.0.1:9/hook' };
      // The introspection answers for HTTP Basic only: with the password the create example made.
      const authorization = r.op === 'appPasswords.introspect' ? basic : bearer;
      expect(authorization, r.op).toBeDefined();
      const res = await fetch(r.url, {
        method: r.method,
        headers: { ...r.headers, authorization: authorization!, ...(r.body ? { 'content-type': 'application/json' } : {}) },
        ...(r.body ? { body: JSON.stringify(r.body) } : {}),
      });
      const text = await res.text();
      // WordPress's term deletes take force=false by default, as WordPress declares it: terms have no trash.
      const trashless = r.method === 'DELETE' && /^wp(?:Tags|Categories)\./.test(r.op);
      // The demo calendar has no webhook: the examples of one name an id that answers 404, as documented.
      const noWebhook = /^webhooks\.(?:get|delete|deliveries)$/.test(r.op);
      expect(res.status, `${r.method} ${r.url} ${r.body ? JSON.stringify(r.body) : ''} -> ${text.slice(0, 300)}`).toBe(
        r.op.endsWith('.create') ? 201 : trashless ? 501 : noWebhook ? 404 : 200,
      );
      if (noWebhook) expect(JSON.parse(text).code).toBe('rest_webhook_not_found');
      const body = JSON.parse(text);
      if (r.op === 'appPasswords.create') basic = `Basic ${Buffer.from(`${DEMO_RECORDS.appPassword.sub}:${body.password}`).toString('base64')}`;
      if (r.op === 'appPasswords.introspect') expect(body.name).toBe('Calendar sync');
      // The subscription made goes at once: no change of the later examples is sent to it.
      if (r.op === 'webhooks.create') expect((await gw.api('DELETE', `/webhooks/${body.id}`, { token: 'editor' })).status).toBe(200);
      // The create example makes an event without a venue.
      if (r.op === 'events.create') expect([body.title, body.venue, body.start_date]).toEqual(['Picnic in the Park', [], '2030-06-01 12:00:00']);
      // A trashed record is published again, so that the delete by slug finds it too.
      // tec/v1's deletes answer an empty list: the record trashed is the one the URL names.
      const op = r.op.split('.')[0]!;
      const kind = ({ tecEvents: 'events', tecVenues: 'venues', tecOrganizers: 'organizers' } as Record<string, string>)[op] ?? op;
      if (r.method === 'DELETE' && ['events', 'venues', 'organizers'].includes(kind)) {
        const id = op === kind ? body.id : Number(new URL(r.url).pathname.split('/').at(-1));
        if (op === kind) expect(body.status, r.url).toBe('trash');
        const back = await gw.api('PATCH', `/${kind}/${id}`, { token: 'editor', body: { status: 'publish' } });
        expect(back.status, back.text).toBe(200);
        // An event leaves the trash with its "__trashed" slug (venues and organizers take theirs back).
        const slug = (op === kind ? body.slug : back.body.slug).replace(/__trashed$/, '');
        if (back.body.slug !== slug) expect((await gw.api('PATCH', `/${kind}/${id}`, { token: 'editor', body: { slug } })).body.slug).toBe(slug);
      }
    }
    expect(await gw.api('GET', `/events/${DEMO_RECORDS.event.id}`).then((r) => [r.status, r.body.slug])).toEqual([200, DEMO_RECORDS.event.slug]);
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
    return page.locator(`.opblock.opblock-${method.toLowerCase()}`, { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) }).first();
  }

  /** Expands the operation, presses "Try it out" and "Execute"; returns the network response and the status shown. */
  async function tryItOut(page: Page, op: Locator, apiPath: string, method = 'GET'): Promise<{ response: Response; shown: string }> {
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    const seen = page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname === apiPath);
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
        // WordPress's routes name a server of their own (SITE_URL's too): moved to this origin as well.
        const me = await tryItOut(page, operation(page, 'GET', '/wp/v2/users/me'), '/ru/wp/v2/users/me');
        expect(me.response.url()).toBe(`${gw.origin}/ru/wp/v2/users/me?context=view`);
        expect([me.response.status(), (await me.response.json()).code]).toEqual([401, 'rest_not_logged_in']);
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
  it(
    'shows a lock on writes only, authorizes with a bearer token in its dialog, and creates an event from the prefilled example',
    async () => {
      const { page, requests, problems } = await open('/docs');
      await page.locator('.opblock').first().waitFor({ state: 'visible' });
      const lock = (method: string, path: string) => operation(page, method, path).locator('.opblock-summary .authorization__btn');
      for (const [method, path] of [
        ['GET', '/events'],
        ['GET', '/events/{id}'],
        ['GET', '/venues/by-slug/{slug}'],
        ['GET', '/categories'],
        ['GET', '/doc'],
      ] as const) {
        expect(await lock(method, path).count(), `${method} ${path}`).toBe(0);
      }
      for (const [method, path] of [
        ['POST', '/events'],
        ['PATCH', '/events/{id}'],
        ['DELETE', '/venues/{id}'],
        ['POST', '/tags'],
        ['GET', '/wp/v2/users/me'],
        ['POST', '/wp/v2/users/{user}/application-passwords'],
      ] as const) {
        expect(await lock(method, path).count(), `${method} ${path}`).toBe(1);
        expect(await lock(method, path).getAttribute('aria-label'), `${method} ${path}`).toBe('authorization button unlocked');
      }

      // The Authorize dialog offers both schemes; the bearer token goes into its own form.
      await page.locator('.auth-wrapper .authorize').click();
      const dialog = page.locator('.dialog-ux');
      expect(await dialog.locator('input[aria-label="auth-basic-username"]').count()).toBe(1);
      const bearer = dialog.locator('.auth-container', { has: page.locator('h4 code', { hasText: /^bearerAuth$/ }) });
      await bearer.locator('input[aria-label="auth-bearer-value"]').fill(await gw.token('editor'));
      await bearer.getByRole('button', { name: 'Apply credentials' }).click();
      await bearer.getByRole('button', { name: 'Remove authorization' }).waitFor({ state: 'visible' });
      await dialog.locator('.btn-done').first().click();
      expect(await lock('POST', '/events').getAttribute('aria-label')).toBe('authorization button locked');

      // "Try it out" and "Execute" with the body as prefilled.
      const { response, shown } = await tryItOut(page, operation(page, 'POST', '/events'), '/en/tribe/events/v1/events', 'POST');
      const sent = response.request();
      expect(sent.postDataJSON()).toEqual({ title: 'Picnic in the Park', start_date: '2030-06-01 12:00:00', end_date: '2030-06-01 15:00:00' });
      expect((await sent.allHeaders()).authorization).toMatch(/^Bearer /);
      expect([response.status(), shown]).toEqual([201, '201']);
      const created = (await response.json()) as Json;
      const back = await gw.api('GET', `/events/${created.id}`);
      expect([back.status, back.body.title, back.body.venue]).toEqual([200, 'Picnic in the Park', []]);

      // WordPress's route, under its own server, with the same credentials.
      const me = await tryItOut(page, operation(page, 'GET', '/wp/v2/users/me'), '/en/wp/v2/users/me');
      expect(me.response.url().startsWith(`${gw.origin}/en/wp/v2/users/me`)).toBe(true);
      expect([me.response.status(), me.shown, ((await me.response.json()) as Json).name]).toEqual([200, '200', 'local-editor']);

      expect(outside(requests), 'requests that left the server').toEqual([]);
      expect(problems).toEqual([]);
      // persistAuthorization keeps the token in the origin's storage: later pages start signed out.
      await page.evaluate('localStorage.clear()');
      await page.close();
    },
    BROWSER_MS,
  );
});
