// Browsers on other sites call the API as they call WordPress: every answer carries WordPress's
// CORS headers (the origin echoed, credentials allowed, the pagination headers exposed), and a
// preflight of a route that exists is 200. Checked over HTTP, then from a page on another origin
// in headless Chromium, with a token (so the browser sends a preflight first).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_MS, launchChromium, type Browser } from '../support/browser.js';
import { useGateway } from '../support/gateway.js';
import { createAsEditor } from '../support/expect.js';

const gw = useGateway();
const at = (days: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} 10:00:00`;
const SITE = 'https://calendar.example';

describe('CORS over HTTP', () => {
  beforeAll(async () => {
    await createAsEditor(gw, '/events', { title: 'Listed', start_date: at(3), end_date: at(3) });
  });

  it('echoes the origin, with credentials, on answers and errors alike', async () => {
    for (const [path, status] of [
      ['/events', 200],
      ['/events/987654', 404],
      ['/nowhere', 404],
    ] as const) {
      const res = await gw.api('GET', path, { headers: { origin: SITE } });
      expect(res.status, path).toBe(status);
      expect(res.headers.get('access-control-allow-origin'), path).toBe(SITE);
      expect(res.headers.get('access-control-allow-credentials'), path).toBe('true');
      expect(res.headers.get('access-control-allow-methods'), path).toBe('OPTIONS, GET, POST, PUT, PATCH, DELETE');
      expect(res.headers.get('vary'), path).toBe('Authorization, Origin');
      expect(res.headers.get('access-control-allow-headers'), path).toBe(
        'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, If-Match, If-None-Match, Idempotency-Key, X-TEC-EEA',
      );
      expect(res.headers.get('access-control-expose-headers'), path).toBe(
        'X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages, ETag, Content-Disposition, X-Feed-Events, X-Feed-Truncated',
      );
    }
    // `null` (a sandboxed page or a file) is echoed too, as WordPress does.
    expect((await gw.api('GET', '/events', { headers: { origin: 'null' } })).headers.get('access-control-allow-origin')).toBe('null');
  });

  it('sends no origin-specific headers without an Origin', async () => {
    const res = await gw.api('GET', '/events');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toContain('X-WP-Total');
  });

  it('answers a preflight of a route that exists with 200 and its methods, and 404 elsewhere', async () => {
    const headers = { origin: SITE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' };
    const events = await gw.api('OPTIONS', '/events', { headers });
    expect(events.status).toBe(200);
    expect(events.headers.get('allow')).toBe('GET, POST');
    expect(events.headers.get('access-control-allow-origin')).toBe(SITE);
    const one = await gw.api('OPTIONS', '/events/12', { headers });
    expect(one.headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');
    const nowhere = await gw.api('OPTIONS', '/nowhere', { headers });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.code).toBe('rest_no_route');
  });
});

describe('CORS from another origin in headless Chromium', () => {
  let browser: Browser | undefined;
  let site: Server | undefined;
  let siteUrl = '';

  beforeAll(async () => {
    // Another origin: a page on its own port.
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>other site</title>');
    });
    await new Promise<void>((ok) => site!.listen(0, '127.0.0.1', ok));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    browser = await launchChromium('cors');
  }, BROWSER_MS + 30_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((ok) => site?.close(ok));
  }, 60_000);

  it(
    'reads a list with its totals, and writes with a token after a preflight',
    async () => {
      const page = await browser!.context.newPage();
      await page.goto(siteUrl);
      const token = await gw.token('editor');
      const result = await page.evaluate(
        async ({ base, token, start }) => {
          const list = await fetch(`${base}/events`);
          const created = await fetch(`${base}/events`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ title: 'From another site', start_date: start, end_date: start }),
          });
          return { listStatus: list.status, total: list.headers.get('x-tec-total'), status: created.status, title: ((await created.json()) as { title: string }).title };
        },
        { base: gw.base, token, start: at(4) },
      );
      expect(result).toEqual({ listStatus: 200, total: expect.stringMatching(/^\d+$/), status: 201, title: 'From another site' });
      await page.close();
    },
    BROWSER_MS,
  );
});
