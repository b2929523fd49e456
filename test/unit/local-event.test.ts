import { describe, expect, it } from 'vitest';
import { FALLBACK_HANDLER, OPERATIONS } from '#lib/contract/operations.js';
import { isTextContentType, matchRoute, requestTime, toApiGatewayEvent, type RouteMatch } from '#lib/local/event.js';

const NS = 'tribe';
const BASE = '/en/tribe/events/v1';
const FALLBACK: RouteMatch = { handler: FALLBACK_HANDLER, routeKey: '$default' };

describe('matchRoute', () => {
  it('matches the namespace root with and without its trailing slash', () => {
    const expected: RouteMatch = {
      op: OPERATIONS.find((o) => o.id === 'root.index'),
      handler: 'functions/root/index.ts',
      routeKey: 'GET /{lang}/tribe/events/v1',
      pathParameters: { lang: 'en' },
    };
    expect(matchRoute('GET', BASE, NS)).toEqual(expected);
    expect(matchRoute('GET', `${BASE}/`, NS)).toEqual(expected);
  });

  it('matches collections, ids and slugs, one segment per parameter', () => {
    const list = matchRoute('GET', `${BASE}/events`, NS);
    expect(list.op?.id).toBe('events.list');
    expect(list.routeKey).toBe('GET /{lang}/tribe/events/v1/events');
    expect(list.pathParameters).toEqual({ lang: 'en' });

    const get = matchRoute('GET', '/lt/tribe/events/v1/events/42', NS);
    expect(get).toEqual({
      op: OPERATIONS.find((o) => o.id === 'events.get'),
      handler: 'functions/events/get.ts',
      routeKey: 'GET /{lang}/tribe/events/v1/events/{id}',
      pathParameters: { lang: 'lt', id: '42' },
    });

    const bySlug = matchRoute('DELETE', `${BASE}/venues/by-slug/main-hall/`, NS);
    expect(bySlug.op?.id).toBe('venues.deleteBySlug');
    expect(bySlug.routeKey).toBe('DELETE /{lang}/tribe/events/v1/venues/by-slug/{slug}');
    expect(bySlug.pathParameters).toEqual({ lang: 'en', slug: 'main-hall' });

    expect(matchRoute('GET', `${BASE}/doc`, NS).op?.id).toBe('root.doc');
    expect(matchRoute('GET', `${BASE}/tags/7`, NS).op?.id).toBe('tags.get');
  });

  it('takes any non-empty segment for a parameter, as API Gateway does (handlers check them)', () => {
    expect(matchRoute('GET', '/xx/tribe/events/v1/events', NS)).toMatchObject({
      routeKey: 'GET /{lang}/tribe/events/v1/events',
      pathParameters: { lang: 'xx' },
    });
    expect(matchRoute('GET', `${BASE}/events/abc`, NS)).toMatchObject({
      routeKey: 'GET /{lang}/tribe/events/v1/events/{id}',
      pathParameters: { lang: 'en', id: 'abc' },
    });
    // `by-slug` is a literal segment, so it is the id route's parameter only when nothing follows.
    expect(matchRoute('GET', `${BASE}/events/by-slug`, NS).pathParameters).toEqual({ lang: 'en', id: 'by-slug' });
  });

  it('percent-decodes captured segments', () => {
    expect(matchRoute('GET', `${BASE}/events/by-slug/caf%C3%A9%20night`, NS).pathParameters).toEqual({
      lang: 'en',
      slug: 'café night',
    });
    // A malformed escape is passed on as sent.
    expect(matchRoute('GET', `${BASE}/events/by-slug/100%`, NS).pathParameters).toEqual({ lang: 'en', slug: '100%' });
  });

  it('uses the method: each of POST, PUT and PATCH has its own route key; HEAD is served by GET', () => {
    for (const m of ['POST', 'PUT', 'PATCH']) {
      expect(matchRoute(m, `${BASE}/events/5`, NS)).toMatchObject({
        routeKey: `${m} /{lang}/tribe/events/v1/events/{id}`,
        handler: 'functions/events/update.ts',
      });
    }
    expect(matchRoute('post', `${BASE}/events`, NS).op?.id).toBe('events.create');
    expect(matchRoute('HEAD', `${BASE}/events/5`, NS)).toMatchObject({
      routeKey: 'GET /{lang}/tribe/events/v1/events/{id}',
      handler: 'functions/events/get.ts',
    });
  });

  it('falls back to the $default route for everything else', () => {
    expect(matchRoute('GET', '/', NS)).toEqual(FALLBACK);
    expect(matchRoute('GET', '', NS)).toEqual(FALLBACK);
    expect(matchRoute('GET', '/en/other/events/v1/events', NS)).toEqual(FALLBACK);
    expect(matchRoute('GET', '/en/tribe/events/v2/events', NS)).toEqual(FALLBACK);
    expect(matchRoute('GET', `${BASE}/nothing`, NS)).toEqual(FALLBACK);
    expect(matchRoute('GET', `${BASE}/events/1/extra`, NS)).toEqual(FALLBACK);
    expect(matchRoute('DELETE', `${BASE}/events`, NS)).toEqual(FALLBACK); // no such method on the path
    expect(matchRoute('OPTIONS', `${BASE}/events`, NS)).toEqual(FALLBACK);
    expect(matchRoute('GET', `${BASE}/events//`, NS)).toEqual(FALLBACK); // one trailing slash only
    expect(matchRoute('GET', `${BASE}/events/`, NS).op?.id).toBe('events.list');
    expect(matchRoute('GET', `${BASE}/events//1`, NS)).toEqual(FALLBACK); // empty segment
    expect(matchRoute('GET', '//tribe/events/v1/events', NS)).toEqual(FALLBACK); // empty {lang}
    expect(matchRoute('GET', `${BASE}/EVENTS`, NS)).toEqual(FALLBACK); // literals are case-sensitive
  });

  it('follows the configured namespace', () => {
    expect(matchRoute('GET', '/en/acme/events/v1/events', 'acme')).toMatchObject({
      routeKey: 'GET /{lang}/acme/events/v1/events',
      handler: 'functions/events/list.ts',
    });
    expect(matchRoute('GET', `${BASE}/events`, 'acme')).toEqual(FALLBACK);
  });
});

describe('toApiGatewayEvent', () => {
  const now = new Date(Date.UTC(2026, 2, 5, 7, 8, 9));
  const route = matchRoute('GET', `${BASE}/events/12`, NS);

  it('builds the payload-2.0 event of a GET', () => {
    const event = toApiGatewayEvent(
      {
        method: 'GET',
        url: `${BASE}/events/12?a=1&b=x%20y&a=2&tags[]=music&empty=&flag`,
        headers: {
          Host: '127.0.0.1:3000',
          'User-Agent': 'curl/8.5.0',
          Accept: '*/*',
          'x-multi': ['one', 'two'],
          cookie: 'sid=abc; theme=dark',
        },
        remoteAddress: '::ffff:127.0.0.1',
        localPort: 3000,
        requestId: 'req-1',
        now,
      },
      route,
    );
    expect(event).toEqual({
      version: '2.0',
      routeKey: 'GET /{lang}/tribe/events/v1/events/{id}',
      rawPath: '/en/tribe/events/v1/events/12',
      rawQueryString: 'a=1&b=x%20y&a=2&tags[]=music&empty=&flag',
      cookies: ['sid=abc', 'theme=dark'],
      headers: {
        host: '127.0.0.1:3000',
        'user-agent': 'curl/8.5.0',
        accept: '*/*',
        'x-multi': 'one,two',
        'x-forwarded-for': '127.0.0.1',
        'x-forwarded-port': '3000',
        'x-forwarded-proto': 'http',
      },
      queryStringParameters: { a: '1,2', b: 'x y', 'tags[]': 'music', empty: '', flag: '' },
      pathParameters: { lang: 'en', id: '12' },
      requestContext: {
        accountId: 'local',
        apiId: 'local',
        domainName: '127.0.0.1',
        domainPrefix: '127',
        http: {
          method: 'GET',
          path: '/en/tribe/events/v1/events/12',
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: 'curl/8.5.0',
        },
        requestId: 'req-1',
        routeKey: 'GET /{lang}/tribe/events/v1/events/{id}',
        stage: '$default',
        time: '05/Mar/2026:07:08:09 +0000',
        timeEpoch: now.getTime(),
      },
      isBase64Encoded: false,
    });
    expect('body' in event).toBe(false);
  });

  it('leaves out queryStringParameters, pathParameters and cookies when there are none', () => {
    const event = toApiGatewayEvent({ method: 'get', url: '/nothing/here', headers: { host: 'localhost' } }, matchRoute('GET', '/nothing/here', NS));
    expect(event.routeKey).toBe('$default');
    expect(event.requestContext.routeKey).toBe('$default');
    expect(event.requestContext.http.method).toBe('GET');
    expect(event.rawQueryString).toBe('');
    expect(event.queryStringParameters).toBeUndefined();
    expect(event.pathParameters).toBeUndefined();
    expect(event.cookies).toBeUndefined();
    expect('queryStringParameters' in event).toBe(false);
    expect('pathParameters' in event).toBe(false);
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(event.requestContext.http.userAgent).toBe('');
    // `?` alone: an empty query string, still no parameters
    expect(toApiGatewayEvent({ method: 'GET', url: '/x?', headers: {} }, FALLBACK).queryStringParameters).toBeUndefined();
  });

  it('decodes rawPath like HTTP APIs do, and keeps the query string as sent', () => {
    const url = `${BASE}/events/by-slug/caf%C3%A9?search=caf%C3%A9+bar`;
    const event = toApiGatewayEvent({ method: 'GET', url, headers: {} }, matchRoute('GET', url.split('?')[0]!, NS));
    expect(event.rawPath).toBe('/en/tribe/events/v1/events/by-slug/café');
    expect(event.requestContext.http.path).toBe('/en/tribe/events/v1/events/by-slug/café');
    expect(event.rawQueryString).toBe('search=caf%C3%A9+bar');
    expect(event.queryStringParameters).toEqual({ search: 'café bar' });
    expect(event.pathParameters).toEqual({ lang: 'en', slug: 'café' });
  });

  it('passes JSON, form and text bodies as UTF-8 text', () => {
    const post = matchRoute('POST', `${BASE}/events`, NS);
    const json = toApiGatewayEvent(
      { method: 'POST', url: `${BASE}/events`, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from('{"title":"Žalgiris"}') },
      post,
    );
    expect(json.body).toBe('{"title":"Žalgiris"}');
    expect(json.isBase64Encoded).toBe(false);
    expect(json.routeKey).toBe('POST /{lang}/tribe/events/v1/events');

    const form = toApiGatewayEvent(
      { method: 'POST', url: `${BASE}/events`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from('title=A+B&tags[]=x') },
      post,
    );
    expect(form.body).toBe('title=A+B&tags[]=x');
    expect(form.isBase64Encoded).toBe(false);
  });

  it('base64-encodes other bodies, and a body without a content type', () => {
    const post = matchRoute('POST', `${BASE}/events`, NS);
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const bin = toApiGatewayEvent({ method: 'POST', url: `${BASE}/events`, headers: { 'content-type': 'image/png' }, body: bytes }, post);
    expect(bin.body).toBe('AAEC+v8=');
    expect(bin.isBase64Encoded).toBe(true);
    const untyped = toApiGatewayEvent({ method: 'POST', url: `${BASE}/events`, headers: {}, body: Buffer.from('{}') }, post);
    expect(untyped.body).toBe('e30=');
    expect(untyped.isBase64Encoded).toBe(true);
  });

  it('leaves the body out when it is empty', () => {
    const post = matchRoute('POST', `${BASE}/events`, NS);
    const event = toApiGatewayEvent({ method: 'POST', url: `${BASE}/events`, headers: { 'content-type': 'application/json' }, body: Buffer.alloc(0) }, post);
    expect('body' in event).toBe(false);
    expect(event.isBase64Encoded).toBe(false);
  });

  it('appends the client to an existing x-forwarded-for and keeps a given x-forwarded-proto', () => {
    const event = toApiGatewayEvent(
      { method: 'GET', url: '/', headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' }, remoteAddress: '10.0.0.2', localPort: 8080 },
      FALLBACK,
    );
    expect(event.headers['x-forwarded-for']).toBe('203.0.113.9, 10.0.0.2');
    expect(event.headers['x-forwarded-proto']).toBe('https');
    expect(event.headers['x-forwarded-port']).toBe('8080');
    expect(event.requestContext.http.sourceIp).toBe('10.0.0.2');
  });
});

describe('helpers', () => {
  it('isTextContentType', () => {
    for (const t of [
      'application/json',
      'application/json; charset=UTF-8',
      'application/ld+json',
      'application/x-www-form-urlencoded',
      'text/plain',
      'TEXT/CSV',
      'application/xml',
    ]) {
      expect(isTextContentType(t), t).toBe(true);
    }
    for (const t of [undefined, '', 'multipart/form-data; boundary=x', 'application/octet-stream', 'image/png']) {
      expect(isTextContentType(t), String(t)).toBe(false);
    }
  });

  it('requestTime', () => {
    expect(requestTime(new Date(Date.UTC(2020, 11, 1, 19, 3, 58)))).toBe('01/Dec/2020:19:03:58 +0000');
  });
});
