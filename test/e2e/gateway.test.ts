// The local API Gateway through its real HTTP server: routing, the no-route fallback, body
// limits, and how handler results and failures reach the client.
import { request } from 'node:http';
import { connect } from 'node:net';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway, type LambdaHandler } from '#lib/local/gateway.js';
import type { RouteMatch } from '#lib/local/event.js';
import { useGateway } from '../support/gateway.js';
import { NO_ROUTE } from '../support/expect.js';

const NO_ROUTE_BODY = JSON.stringify(NO_ROUTE);
const TEN_MB = 10 * 1024 * 1024;

/** Sends a chunked body (no content-length) of `total` bytes; resolves with status and body. */
function postChunked(url: string, total: number): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    const write = () => {
      while (sent < total) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

describe('local gateway with the real handlers', () => {
  const gw = useGateway();

  it('answers an unknown path with rest_no_route', async () => {
    const res = await fetch(gw.abs('/nothing/here'));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await res.text()).toBe(NO_ROUTE_BODY);
  });

  it('answers an unknown language segment with rest_no_route', async () => {
    const res = await fetch(gw.abs('/xx/tribe/events/v1/events'));
    expect(res.status).toBe(404);
    expect(await res.text()).toBe(NO_ROUTE_BODY);
  });

  it('answers a wrong namespace or version with rest_no_route', async () => {
    for (const path of ['/en/other/events/v1/events', '/en/tribe/events/v2/events', '/en/tribe/events/v1/nothing', '/en/tribe/events/v1/events/1/more']) {
      const res = await fetch(gw.abs(path));
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toBe(NO_ROUTE_BODY);
    }
  });

  it('answers a method no route has with rest_no_route', async () => {
    const res = await gw.api('DELETE', '/events');
    expect(res.status).toBe(404);
    expect(res.text).toBe(NO_ROUTE_BODY);
    const put = await gw.api('PUT', '/categories');
    expect(put.status).toBe(404);
    expect(put.body).toEqual(JSON.parse(NO_ROUTE_BODY));
  });

  it('answers HEAD with the status and headers but no body', async () => {
    const res = await fetch(gw.abs('/nothing'), { method: 'HEAD' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await res.text()).toBe('');
  });

  it('adds an apigw-requestid header, a fresh one per request', async () => {
    const a = await fetch(gw.abs('/nothing'));
    const b = await fetch(gw.abs('/nothing'));
    expect(a.headers.get('apigw-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get('apigw-requestid')).not.toBe(a.headers.get('apigw-requestid'));
  });

  it('rejects a body over 10 MB with 413 in the WordPress envelope', async () => {
    const res = await fetch(gw.url('/events'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(TEN_MB + 1, 0x20),
    });
    expect(res.status).toBe(413);
    const body = (await res.json()) as { code: string; message: string; data: unknown };
    expect(body).toEqual({ code: 'rest_payload_too_large', message: body.message, data: { status: 413 } });
    expect(body.message).toMatch(/10485760 bytes/);
  });

  it('rejects a chunked body once it passes 10 MB', async () => {
    const res = await postChunked(gw.url('/events'), TEN_MB + 1);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413 } });
  });

  it('lets a client that sends a 12 MB body whole before it reads read the 413 (no reset mid-upload)', async () => {
    const twelve = 12 * 1024 * 1024;
    // Resolved once the answer was read and the whole body was sent, or at the first error of either.
    const whole = await new Promise<{ status: number; body: string; error?: string }>((ok) => {
      let answer: { status: number; body: string } | undefined;
      let uploaded = false;
      const done = () => answer && uploaded && ok(answer);
      const req = request(gw.url('/events'), { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': twelve } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => ((answer = { status: res.statusCode ?? 0, body }), done()));
      });
      req.on('error', (err: NodeJS.ErrnoException) => ok({ status: 0, body: '', error: err.code ?? err.message }));
      req.on('finish', () => ((uploaded = true), done()));
      // Sent as a client on a slower link sends it: the upload is still under way when the 413 is ready.
      const piece = Buffer.alloc(256 * 1024, 0x20);
      let sent = 0;
      const next = () => {
        if (sent >= twelve) return req.end();
        sent += piece.length;
        req.write(piece);
        setTimeout(next, 2);
      };
      next();
    });
    expect(whole.error).toBeUndefined();
    expect(whole.status).toBe(413);
    expect(JSON.parse(whole.body)).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413 } });
    const chunked = await postChunked(gw.url('/events'), twelve);
    expect(chunked.status).toBe(413);
  });

  it('the server still answers after a rejected upload', async () => {
    const res = await fetch(gw.abs('/nothing'));
    expect(res.status).toBe(404);
  });

  it('serves the namespace root with and without its trailing slash', async () => {
    for (const path of ['', '/']) {
      const res = await gw.api('GET', path);
      expect(res.status, `"${path}"`).toBe(200);
      expect(res.body.namespace).toBe('tribe/events/v1');
    }
  });

  it('wires the harness end to end: tokens are accepted and writes reach the fresh table', async () => {
    const anonymous = await gw.api('POST', '/categories', { body: { name: 'Harness' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('rest_forbidden');

    const created = await gw.api('POST', '/categories', { body: { name: 'Harness' }, token: 'editor' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Harness', slug: 'harness' });
    // Links use SITE_URL, which the harness points at the gateway.
    expect(created.body.urls.self).toBe(gw.url(`/categories/${created.body.id}`));

    const read = await gw.api('GET', `/categories/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.name).toBe('Harness');

    const form = await gw.api('POST', '/tags', { form: { name: 'Form Tag' }, token: await gw.token('editor', 'bob') });
    expect(form.status).toBe(201);
    expect(form.body.name).toBe('Form Tag');
  });

  it('exposes the API base and mints tokens the handlers accept', async () => {
    expect(gw.base).toBe(`${gw.origin}/en/tribe/events/v1`);
    expect(gw.url('/events/1', 'lt')).toBe(`${gw.origin}/lt/tribe/events/v1/events/1`);
    const token = await gw.token('editor', 'alice');
    expect(token.split('.')).toHaveLength(3);
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).toMatchObject({
      sub: 'alice',
      'cognito:groups': ['editor'],
    });
  });
});

describe('local gateway with stand-in handlers', () => {
  let gateway: Gateway;
  const seen: { event: APIGatewayProxyEventV2; context: Context; match: RouteMatch }[] = [];
  const handlers: Record<string, LambdaHandler> = {
    'functions/events/get.ts': async (event) => ({
      statusCode: 200,
      headers: { 'content-type': 'application/json', 'X-Custom': 'yes' },
      body: JSON.stringify({ id: event.pathParameters?.id }),
    }),
    'functions/events/create.ts': async () => {
      throw new Error('boom (expected by the test)');
    },
    'functions/events/list.ts': async () => ({
      statusCode: 200,
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.from([1, 2, 3]).toString('base64'),
      isBase64Encoded: true,
      cookies: ['a=1; Path=/', 'b=2; Path=/'],
    }),
    'functions/tags/list.ts': async () => ({ plain: 'object' }),
  };

  beforeAll(async () => {
    gateway = await startGateway({
      quiet: true,
      loadHandler: (modulePath, match) => {
        const inner = handlers[modulePath];
        if (!inner) throw new Error(`no stand-in for ${modulePath}`);
        return async (event, context) => {
          seen.push({ event, context, match });
          return inner(event, context);
        };
      },
    });
  });
  afterAll(() => gateway.close());

  it('hands the handler a payload-2.0 event and a Lambda context', async () => {
    const url = `${gateway.url}/ru/tribe/events/v1/events/77?x=1&x=2`;
    const res = await fetch(url, { headers: { 'X-Test': 'a', Cookie: 'k=v; m=n' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-custom')).toBe('yes');
    expect(await res.json()).toEqual({ id: '77' });
    const { event, context, match } = seen.at(-1)!;
    expect(match.op?.id).toBe('events.get');
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /{lang}/tribe/events/v1/events/{id}',
      rawPath: '/ru/tribe/events/v1/events/77',
      rawQueryString: 'x=1&x=2',
      cookies: ['k=v', 'm=n'],
      queryStringParameters: { x: '1,2' },
      pathParameters: { lang: 'ru', id: '77' },
      isBase64Encoded: false,
      requestContext: {
        accountId: 'local',
        stage: '$default',
        routeKey: 'GET /{lang}/tribe/events/v1/events/{id}',
        http: { method: 'GET', path: '/ru/tribe/events/v1/events/77', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1' },
      },
    });
    expect(event.headers['x-test']).toBe('a');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.requestContext.requestId).toBe(res.headers.get('apigw-requestid'));
    expect(context.awsRequestId).toBe(event.requestContext.requestId);
    expect(context.getRemainingTimeInMillis()).toBeGreaterThan(0);
  });

  it('turns a handler exception into 500 rest_internal_error', async () => {
    const res = await fetch(`${gateway.url}/en/tribe/events/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"x"}',
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      code: 'rest_internal_error',
      message: 'The server could not complete the request.',
      data: { status: 500 },
    });
    expect(seen.at(-1)!.event.body).toBe('{"title":"x"}');
  });

  it('decodes base64 bodies and sends each cookie as its own set-cookie header', async () => {
    const res = await fetch(`${gateway.url}/en/tribe/events/v1/events`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from([1, 2, 3]));
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('answers a plain object result as a 200 JSON body, as API Gateway does', async () => {
    const res = await fetch(`${gateway.url}/en/tribe/events/v1/tags`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ plain: 'object' });
  });

  it('routes HEAD to the GET handler and sends no body', async () => {
    const res = await fetch(`${gateway.url}/en/tribe/events/v1/events/5`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String('{"id":"5"}'.length));
    expect(await res.text()).toBe('');
    expect(seen.at(-1)!.event.requestContext.http.method).toBe('HEAD');
    expect(seen.at(-1)!.event.routeKey).toBe('GET /{lang}/tribe/events/v1/events/{id}');
  });

  it('a module that cannot be loaded is a 500, not a crash', async () => {
    const res = await fetch(`${gateway.url}/en/tribe/events/v1/venues`);
    expect(res.status).toBe(500);
    expect(((await res.json()) as { code: string }).code).toBe('rest_internal_error');
  });
});

describe('local gateway body timeouts (stand-in handler, short timeouts)', () => {
  let gateway: Gateway;
  let calls = 0;
  const timeouts = { idleMs: 600, deadlineMs: 1_500 };

  beforeAll(async () => {
    gateway = await startGateway({
      quiet: true,
      bodyTimeouts: timeouts,
      loadHandler: () => async () => {
        calls++;
        return { statusCode: 201, body: '' };
      },
    });
  });
  afterAll(() => gateway.close());

  /** Sends the head, then one body byte every `everyMs` until the server answers; resolves with the status line and when. */
  function trickle(contentLength: number, everyMs: number | undefined): Promise<{ head: string; ms: number; closed: boolean }> {
    const { hostname, port } = new URL(gateway.url);
    return new Promise((ok, fail) => {
      const started = performance.now();
      const socket = connect(Number(port), hostname, () => {
        socket.write(`POST /en/tribe/events/v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`);
      });
      const timer = everyMs === undefined ? undefined : setInterval(() => socket.writable && socket.write(' '), everyMs);
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.on('end', () => {
        clearInterval(timer);
        ok({ head: text.split('\r\n')[0]!, ms: performance.now() - started, closed: true });
      });
      socket.on('error', (err) => (clearInterval(timer), fail(err)));
    });
  }

  it('answers a body that stops 408 once it has paused for the idle timeout', async () => {
    const res = await trickle(100, undefined);
    expect(res.head).toBe('HTTP/1.1 408 Request Timeout');
    expect(res.ms).toBeGreaterThanOrEqual(timeouts.idleMs - 50);
    expect(res.ms).toBeLessThan(timeouts.deadlineMs);
  });

  it('answers a body that keeps trickling 408 at the deadline, however often bytes come', async () => {
    const res = await trickle(10_000, 100);
    expect(res.head).toBe('HTTP/1.1 408 Request Timeout');
    expect(res.ms).toBeGreaterThanOrEqual(timeouts.deadlineMs - 50);
    expect(res.ms).toBeLessThan(timeouts.deadlineMs + 1_000);
  });

  it('runs no handler for either, nor for a client that leaves mid-body, and still answers the next request', async () => {
    const { hostname, port } = new URL(gateway.url);
    await new Promise<void>((ok) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write('POST /en/tribe/events/v1/events HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{"a"');
        setTimeout(() => (socket.destroy(), ok()), 100);
      });
    });
    expect(calls).toBe(0);
    const res = await fetch(`${gateway.url}/en/tribe/events/v1/events`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(201);
    expect(calls).toBe(1);
  });
});
