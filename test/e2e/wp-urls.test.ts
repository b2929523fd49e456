// WordPress's own URLs through the local gateway: `/wp-json/…` and `?rest_route=…` serve every
// operation in the site's default language, `/wp-json/` is WordPress's REST index, and links keep
// the form of the URL a request used.
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATIONS, prefixedPath, routePath, type Operation } from '#lib/contract/operations.js';
import { config, resetConfig } from '#lib/runtime/config.js';
import { useGateway } from '../support/gateway.js';
import { createAsEditor, NO_ROUTE } from '../support/expect.js';

const gw = useGateway({ tablePrefix: 'wpurls' });
const NS = '/tribe/events/v1';
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A concrete path for a route template: values that match every route's variables. */
const concrete = (template: string) => template.replace('{id}', '999999').replace('{slug}', 'no-such-slug').replace('{user}', 'me').replace('{uuid}', 'no-such-uuid');

afterEach(() => {
  delete process.env.DEFAULT_LANGUAGE;
  resetConfig();
});

describe('/wp-json/ and ?rest_route=', () => {
  it('serve every method of every operation as its /en/ route does', async () => {
    const editor = await gw.token('editor', 'wp-urls-editor');
    const ns = config().namespace;
    const seen: string[] = [];
    for (const op of OPERATIONS as Operation[]) {
      for (const method of op.methods) {
        const lang = concrete(routePath(op, ns).replace('{lang}', 'en'));
        const wpJson = concrete(prefixedPath(op, ns, 'wp-json'));
        const route = wpJson.slice('/wp-json'.length) || '/';
        const answers = [];
        for (const path of [lang, wpJson, `/?rest_route=${encodeURIComponent(route)}`, `/index.php?rest_route=${route}`]) {
          const res = await gw.api(method, gw.abs(path), { token: editor });
          answers.push(`${res.status} ${res.body?.code ?? ''}`);
          expect(res.body?.code, `${method} ${path}`).not.toBe('rest_no_route');
        }
        expect(new Set(answers).size, `${method} ${op.id}: ${answers.join(' | ')}`).toBe(1);
        seen.push(op.id);
      }
    }
    expect(new Set(seen).size).toBe(OPERATIONS.length);
    // Four requests for each method of each operation: the time grows with the table.
  }, 60_000);

  it("serve the site's default language, set by DEFAULT_LANGUAGE", async () => {
    await createAsEditor(gw, '/venues', { venue: 'Default Hall' }, 'en');
    await createAsEditor(gw, '/venues', { venue: 'Rusų salė' }, 'ru');
    const names = async (path: string) => ((await gw.api('GET', gw.abs(path))).body.venues as { venue: string; lang: string }[]).map((v) => `${v.lang} ${v.venue}`);
    expect(await names(`/wp-json${NS}/venues`)).toEqual(['en Default Hall']);
    expect(await names(`/?rest_route=${NS}/venues`)).toEqual(['en Default Hall']);
    process.env.DEFAULT_LANGUAGE = 'ru';
    resetConfig();
    expect(await names(`/wp-json${NS}/venues`)).toEqual(['ru Rusų salė']);
    expect(await names(`/index.php?rest_route=${NS}/venues`)).toEqual(['ru Rusų salė']);
    // ml_language still overrides, as under a language prefix.
    expect(await names(`/wp-json${NS}/venues?ml_language=en`)).toEqual(['en Default Hall']);
    // The default language's pages have no language prefix.
    const [ru] = (await gw.api('GET', gw.abs(`/wp-json${NS}/venues`))).body.venues;
    expect(ru.url).toBe(`${gw.origin}/venue/${ru.slug}/`);
    const [en] = (await gw.api('GET', gw.abs(`/en${NS}/venues`))).body.venues;
    expect(en.url).toBe(`${gw.origin}/en/venue/${en.slug}/`);
  });

  it('write links in the form of the request: /<lang>/, /wp-json/ or index.php?rest_route=', async () => {
    const category = await createAsEditor(gw, '/categories', { name: 'Linked form' });
    const event = await createAsEditor(gw, '/events', { title: 'Form keeper', start_date: '2031-03-01 10:00', end_date: '2031-03-01 11:00', categories: [category.id] });
    await createAsEditor(gw, '/events', { title: 'Form keeper two', start_date: '2031-03-02 10:00', end_date: '2031-03-02 11:00' });
    const o = gw.origin;
    /** A REST route (`/tribe/events/v1/events?page=2`) at a URL of each form. */
    const split = (route: string) => [route.split('?')[0]!, route.includes('?') ? `&${route.split('?')[1]}` : ''] as const;
    const forms = [
      { at: (route: string) => `/en${route}`, root: `${o}/en` },
      { at: (route: string) => `/wp-json${route}`, root: `${o}/wp-json` },
      { at: (route: string) => `/?rest_route=${split(route).join('')}`, root: `${o}/index.php?rest_route=` },
      { at: (route: string) => `/index.php?rest_route=${encodeURIComponent(split(route)[0])}${split(route)[1]}`, root: `${o}/index.php?rest_route=` },
    ].map((f) => ({ ...f, path: (p: string) => f.at(`${NS}${p}`) }));
    for (const [n, form] of forms.entries()) {
      const one = await gw.api('GET', gw.abs(form.path(`/events/${event.id}`)));
      expect(one.status, one.text).toBe(200);
      expect(one.body.rest_url).toBe(`${form.root}${NS}/events/${event.id}`);
      expect(one.body.categories[0].urls.self).toBe(`${form.root}${NS}/categories/${category.id}`);

      const page = await gw.api('GET', gw.abs(form.path('/events?per_page=1&start_date=2031-01-01&end_date=2031-12-31')));
      expect(page.status, page.text).toBe(200);
      expect(page.body.total, page.text).toBe(2);
      const sep = form.root.includes('?') ? '&' : '?';
      expect(page.body.rest_url).toMatch(new RegExp(`^${literal(`${form.root}${NS}/events/${sep}page=1&per_page=1&start_date=2031-01-01`)}`));
      expect(page.body.next_rest_url.startsWith(`${form.root}${NS}/events/${sep}`)).toBe(true);
      // The link works, and page 2 links back in the same form.
      const next = await gw.api('GET', page.body.next_rest_url);
      expect(next.status, next.text).toBe(200);
      expect(next.body.events[0].title).toBe('Form keeper two');
      expect(next.body.previous_rest_url.startsWith(`${form.root}${NS}/events/${sep}`)).toBe(true);

      const terms = await gw.api('GET', gw.abs(form.path('/categories?per_page=1&hide_empty=false')));
      expect(terms.body.rest_url).toBe(`${form.root}${NS}/categories/`);

      const index = await gw.api('GET', gw.abs(form.path('/')));
      expect(index.status, index.text).toBe(200);
      expect(index.body._links.up).toEqual([{ href: `${form.root}/` }]);
      expect(index.body.routes[`${NS}/events`]._links.self).toEqual([{ href: `${form.root}${NS}/events` }]);

      const me = await gw.api('POST', gw.abs(form.at('/wp/v2/users/me/application-passwords')), { token: 'editor', body: { name: `links ${n}` } });
      expect(me.status, me.text).toBe(201);
      expect(me.body._links.self[0].href).toBe(`${form.root}/wp/v2/users/${me.body._links.self[0].href.match(/users\/(\d+)/)[1]}/application-passwords/${me.body.uuid}`);
    }
  });

  it('answer GET /wp-json/tribe/events/v1/ with the language root, its links under /wp-json/', async () => {
    const en = await gw.api('GET', gw.abs(`/en${NS}/`));
    for (const path of [`/wp-json${NS}/`, `/wp-json${NS}`, `/?rest_route=${NS}/`]) {
      const res = await gw.api('GET', gw.abs(path));
      expect(res.status).toBe(200);
      const form = path.startsWith('/?') ? `${gw.origin}/index.php?rest_route=` : `${gw.origin}/wp-json`;
      expect(res.text).toBe(en.text.replaceAll(`${gw.origin}/en`, form));
    }
  });

  it("answer GET /wp-json/ with WordPress's REST index of what this API serves", async () => {
    for (const [path, root] of [
      ['/wp-json/', `${gw.origin}/wp-json`],
      ['/wp-json', `${gw.origin}/wp-json`],
      ['/?rest_route=/', `${gw.origin}/index.php?rest_route=`],
    ] as const) {
      const res = await gw.api('GET', gw.abs(path));
      expect(res.status, res.text).toBe(200);
      const index = res.body;
      // WordPress 6.8's keys, in its order.
      expect(Object.keys(index)).toEqual([
        'name',
        'description',
        'url',
        'home',
        'gmt_offset',
        'timezone_string',
        'page_for_posts',
        'page_on_front',
        'show_on_front',
        'namespaces',
        'authentication',
        'routes',
        'site_logo',
        'site_icon',
        'site_icon_url',
        '_links',
      ]);
      expect(index).toMatchObject({ name: 'Event Calendar', description: '', url: gw.origin, home: gw.origin, namespaces: ['tribe/events/v1', 'tec/v1', 'wp/v2'] });
      expect(index.authentication['application-passwords'].endpoints.authorization).toBe(`${root}/wp/v2/users/me/application-passwords`);
      expect(index.routes['/']).toEqual({
        namespace: '',
        methods: ['GET'],
        endpoints: [{ methods: ['GET'], args: { context: { default: 'view', description: 'Scope under which the request is made', type: 'string', required: false } } }],
        _links: { self: [{ href: `${root}/` }] },
      });
      // Every route served, in WordPress's notation, and nothing else.
      const ns = config().namespace;
      const expected = new Set(
        OPERATIONS.map(
          (op) =>
            routePath(op, ns)
              .replace('/{lang}', '')
              .replace('{id}', '(?P<id>\\d+)')
              .replace('{slug}', '(?P<slug>[^/]+)')
              .replace('{user}', '(?P<user_id>(?:[\\d]+|me))')
              .replace('{uuid}', '(?P<uuid>[\\w\\-]+)') || '/',
        ),
      );
      expect(new Set(Object.keys(index.routes))).toEqual(expected);
      expect(index.routes[`${NS}/events/(?P<id>\\d+)`]).toMatchObject({ namespace: 'tribe/events/v1', methods: ['GET', 'DELETE', 'POST', 'PUT', 'PATCH'] });
      expect(index.routes['/wp/v2/users/me']).toMatchObject({ namespace: 'wp/v2', methods: ['GET'], _links: { self: [{ href: `${root}/wp/v2/users/me` }] } });
      // Each route's entry is the one its namespace index shows.
      const nsIndex = (await gw.api('GET', gw.abs(path.startsWith('/?') ? `/?rest_route=${NS}` : `/wp-json${NS}`))).body;
      for (const [route, entry] of Object.entries(nsIndex.routes)) expect(index.routes[route], route).toEqual(entry);
    }
    // A language's REST root is its index.
    const ru = await gw.api('GET', gw.abs('/ru/'));
    expect(ru.body).toMatchObject({ url: gw.origin, home: `${gw.origin}/ru`, routes: { '/': { _links: { self: [{ href: `${gw.origin}/ru/` }] } } } });
  });

  it('answer a path, method or route no route has with rest_no_route, as API Gateway would not match it', async () => {
    for (const [method, path] of [
      ['GET', '/wp-json/nothing'],
      ['GET', '/wp-json/wp/v2/posts'],
      ['GET', `/wp-json${NS}/events/abc`],
      ['PUT', `/wp-json${NS}/events`],
      ['GET', '/?rest_route=/nothing'],
      ['GET', `/?rest_route=tribe/events/v1/events`],
      ['GET', '/index.php'],
      ['GET', '/?rest_route='],
      ['GET', '/favicon.ico'],
    ]) {
      const res = await gw.api(method!, gw.abs(path!));
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body, `${method} ${path}`).toEqual(NO_ROUTE);
    }
    // The site root, with any query but `rest_route`, is the site's page (test/e2e/wp-habits.test.ts).
    const home = await gw.api('GET', gw.abs('/?page=2'));
    expect([home.status, home.headers.get('content-type')]).toEqual([200, 'text/html; charset=UTF-8']);
  });

  it('answer CORS preflights of their routes as the language routes do', async () => {
    for (const path of [`/wp-json${NS}/events`, `/?rest_route=${NS}/events`, `/index.php?rest_route=${NS}/events/7`]) {
      const res = await fetch(gw.abs(path), { method: 'OPTIONS', headers: { origin: 'https://site.example', 'access-control-request-method': 'POST' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://site.example');
      expect(res.headers.get('allow'), path).toBe(path.endsWith('/7') ? 'GET, POST, PUT, PATCH, DELETE' : 'GET, POST');
    }
  });

  it('take writes and percent-encoded routes through ?rest_route=', async () => {
    const created = await gw.api('POST', gw.abs(`/?rest_route=${NS}/venues`), { token: 'editor', body: { venue: 'Café Route' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.lang).toBe('en');
    for (const path of [
      `/?rest_route=${encodeURIComponent(`${NS}/venues/by-slug/cafe-route`)}`,
      `/?rest_route=${NS}/venues/${created.body.id}/`,
      `/?rest_route=%2Fnothing&rest_route=${NS}/venues/${created.body.id}`,
    ]) {
      const res = await gw.api('GET', gw.abs(path));
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      expect(res.body.id).toBe(created.body.id);
    }
    const gone = await gw.api('DELETE', gw.abs(`/index.php?rest_route=${NS}/venues/${created.body.id}&force=true`), { token: 'editor' });
    expect(gone.status, gone.text).toBe(200);
    const [lang, wpJson] = await Promise.all([gw.api('GET', gw.url(`/venues/${created.body.id}`)), gw.api('GET', gw.abs(`/wp-json${NS}/venues/${created.body.id}`))]);
    expect(lang.status).toBeGreaterThanOrEqual(400);
    expect(wpJson.text).toBe(lang.text);
  });
});
