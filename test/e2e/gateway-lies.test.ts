// Requests that lie about their body, and methods an HTTP API does not route, sent over raw
// sockets to the local gateway: each gets an answer in bounded time and its connection closed,
// nothing of it reaches a function, and the server answers everyone else as before.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BODY_IDLE_MS } from '#lib/local/gateway.js';
import { useGateway } from '../support/gateway.js';

const gw = useGateway();

interface RawAnswer {
  /** Everything the server wrote, in order. */
  bytes: Buffer;
  text: string;
  /** Whether the server closed the connection (false: still open when the wait ended). */
  closed: boolean;
  /** Milliseconds from the last byte sent to the close (or to the end of the wait). */
  ms: number;
}

/**
 * Writes `chunks` to a fresh connection (the socket stays open for writing: a client that waits
 * for the rest it promised), then collects what comes back until the server closes it or `waitMs`
 * passes.
 */
function rawExchange(chunks: (string | Buffer)[], waitMs = BODY_IDLE_MS + 5_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(gw.origin);
  return new Promise((ok, fail) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    let sentAt = 0;
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const bytes = Buffer.concat(received);
      ok({ bytes, text: bytes.toString('utf8'), closed, ms: performance.now() - sentAt });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
      sentAt = performance.now();
    });
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('end', () => done(true));
    socket.on('error', fail);
  });
}

/** Splits what the server wrote into its answers: status, lower-cased headers and body. */
function answers(res: RawAnswer): { status: number; headers: Record<string, string>; body: string }[] {
  const out = [];
  let rest = res.bytes;
  while (rest.subarray(0, 9).toString('latin1') === 'HTTP/1.1 ') {
    const headEnd = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const end = headEnd + 4 + Number(headers['content-length'] ?? 0);
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.subarray(headEnd + 4, end).toString('utf8') });
    rest = rest.subarray(end);
  }
  expect(rest.toString('utf8'), 'bytes after the last answer').toBe('');
  return out;
}

const host = () => new URL(gw.origin).host;
const path = (p: string) => new URL(gw.url(p)).pathname;
const at = (days: number, hour: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;
const eventBody = (title: string) => JSON.stringify({ title, start_date: at(3, 10), end_date: at(3, 12), status: 'publish' });
const post = (p: string, token: string, contentLength: number | 'chunked', close = false) =>
  `POST ${path(p)} HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${close ? 'Connection: close\r\n' : ''}` +
  (contentLength === 'chunked' ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${contentLength}\r\n`) +
  '\r\n';

/** The titles of the published events a list shows. */
async function titles(): Promise<string[]> {
  const res = await gw.api('GET', '/events', { query: { per_page: 50 } });
  expect(res.status, res.text).toBe(200);
  return (res.body.events as { title: string }[]).map((e) => e.title);
}

describe('a body shorter than its Content-Length', () => {
  it('is answered 408 and closed within the idle timeout, nothing is written, and others are answered meanwhile', async () => {
    const token = await gw.token('editor');
    // The control: the same body, honestly framed, creates the event.
    const honest = eventBody('Honest framing');
    const control = answers(await rawExchange([post('/events', token, Buffer.byteLength(honest), true), honest]));
    expect(control[0]!.status, control[0]!.body).toBe(201);
    expect(await titles()).toContain('Honest framing');

    // A whole, valid body that promises ten bytes more than it sends.
    const body = eventBody('Promised more');
    const lying = rawExchange([post('/events', token, Buffer.byteLength(body) + 10), body]);
    // While it waits, the server answers other requests at once.
    const started = performance.now();
    expect((await fetch(gw.abs('/nothing'))).status).toBe(404);
    expect(performance.now() - started).toBeLessThan(BODY_IDLE_MS / 2);

    const res = await lying;
    expect(res.closed).toBe(true);
    expect(res.ms).toBeGreaterThan(BODY_IDLE_MS - 500);
    expect(res.ms).toBeLessThan(BODY_IDLE_MS + 3_000);
    const [answer, ...more] = answers(res);
    expect(more).toEqual([]);
    expect(answer!.status).toBe(408);
    expect(answer!.headers.connection).toBe('close');
    expect(JSON.parse(answer!.body)).toEqual({ code: 'rest_request_timeout', message: 'The request was not received in time.', data: { status: 408 } });
    expect(await titles()).not.toContain('Promised more');
  }, 30_000);

  it('a chunked body that never ends is answered 408 and closed, and writes nothing', async () => {
    const token = await gw.token('editor');
    const body = eventBody('Never ends');
    const chunk = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n`;
    const res = await rawExchange([post('/events', token, 'chunked'), chunk]);
    expect(res.closed).toBe(true);
    expect(res.ms).toBeLessThan(BODY_IDLE_MS + 3_000);
    expect(answers(res).map((a) => a.status)).toEqual([408]);
    expect(await titles()).not.toContain('Never ends');
  }, 30_000);

  it('a body that stops past the 10 MB limit is answered 413, not 408, and closed', async () => {
    const token = await gw.token('editor');
    const sent = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    const res = await rawExchange([post('/events', token, 20 * 1024 * 1024), sent]);
    expect(res.closed).toBe(true);
    expect(res.ms).toBeLessThan(BODY_IDLE_MS + 3_000);
    const [answer] = answers(res);
    expect(answer!.status).toBe(413);
    expect(JSON.parse(answer!.body)).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413 } });
  }, 30_000);

  it('a Content-Length past what is ever read is refused at once, before any body byte', async () => {
    const res = await rawExchange([post('/events', await gw.token('editor'), 100 * 1024 * 1024)]);
    expect(res.closed).toBe(true);
    expect(res.ms).toBeLessThan(2_000);
    expect(answers(res).map((a) => a.status)).toEqual([413]);
  });
});

describe('a body longer than its Content-Length', () => {
  it('runs the request on the bytes declared, then answers the rest as a malformed request and closes', async () => {
    const token = await gw.token('editor');
    const body = JSON.stringify({ name: 'Declared Part' });
    const res = await rawExchange([post('/tags', token, Buffer.byteLength(body)), `${body}{"name":"Smuggled"}\r\n\r\n`], 5_000);
    expect(res.closed).toBe(true);
    const [first, second, ...more] = answers(res);
    expect(more).toEqual([]);
    // The first answer is the request's own, whole, before the refusal of what followed it.
    expect(first!.status, first!.body).toBe(201);
    expect(JSON.parse(first!.body).name).toBe('Declared Part');
    expect(second!.status).toBe(400);
    expect(second!.headers.connection).toBe('close');
    expect(JSON.parse(second!.body).code).toBe('rest_bad_request');
    const tags = await gw.api('GET', '/tags', { query: { per_page: 100, hide_empty: false } });
    expect((tags.body.tags as { name: string }[]).map((t) => t.name)).toEqual(['Declared Part']);
  });
});

describe('methods an HTTP API does not route', () => {
  const expectRefused = (res: RawAnswer) => {
    expect(res.closed, res.text).toBe(true);
    const [answer, ...more] = answers(res);
    expect(more).toEqual([]);
    expect(answer!.status).toBe(405);
    expect(answer!.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(answer!.headers.connection).toBe('close');
    expect(JSON.parse(answer!.body)).toEqual({ code: 'rest_method_not_allowed', message: 'The request method is not one this API serves.', data: { status: 405 } });
  };

  it('TRACE is answered 405 with Allow, without echoing the request, and closed', async () => {
    const res = await rawExchange([`TRACE ${path('/events')} HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer secret-token\r\n\r\n`], 5_000);
    expectRefused(res);
    expect(res.text).not.toContain('secret-token');
  });

  it('TRACE with a body: the body is not read as a next request', async () => {
    const smuggled = `GET ${path('/events')} HTTP/1.1\r\nHost: ${host()}\r\n\r\n`;
    const res = await rawExchange([`TRACE / HTTP/1.1\r\nHost: ${host()}\r\nContent-Length: ${smuggled.length}\r\n\r\n${smuggled}`], 5_000);
    expectRefused(res);
  });

  it('CONNECT is answered 405, not dropped', async () => {
    expectRefused(await rawExchange([`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`], 5_000));
    // A CONNECT to a path of the API is no different.
    expectRefused(await rawExchange([`CONNECT ${path('/events')} HTTP/1.1\r\nHost: ${host()}\r\n\r\n`], 5_000));
  });

  it('other methods Node knows (PROPFIND, PURGE) are answered 405; a token it does not know (FOO) 400', async () => {
    for (const method of ['PROPFIND', 'PURGE', 'SEARCH']) expectRefused(await rawExchange([`${method} ${path('/events')} HTTP/1.1\r\nHost: ${host()}\r\n\r\n`], 5_000));
    const foo = await rawExchange([`FOO ${path('/events')} HTTP/1.1\r\nHost: ${host()}\r\n\r\n`], 5_000);
    expect(foo.closed).toBe(true);
    const [answer] = answers(foo);
    expect(answer!.status).toBe(400);
    expect(JSON.parse(answer!.body).code).toBe('rest_bad_request');
  });

  it('the seven routable methods still route as before, OPTIONS to the fallback', async () => {
    const options = await gw.api('OPTIONS', '/events');
    expect(options.status).toBe(200);
    expect(options.headers.get('allow')).toBe('GET, POST');
    expect((await gw.api('DELETE', '/events')).status).toBe(404);
    expect((await gw.api('GET', '/events')).status).toBe(200);
  });
});

describe('after all of it', () => {
  it('the server answers normal requests, on a kept-alive connection and on a new one', async () => {
    const token = await gw.token('editor');
    const body = JSON.stringify({ name: 'After' });
    const res = await rawExchange([`GET ${path('/tags')} HTTP/1.1\r\nHost: ${host()}\r\n\r\n`, `${post('/tags', token, Buffer.byteLength(body), true)}${body}`], 5_000);
    expect(res.closed).toBe(true);
    expect(answers(res).map((a) => a.status)).toEqual([200, 201]);
    const tags = await gw.api('GET', '/tags', { query: { per_page: 100, hide_empty: false } });
    expect((tags.body.tags as { name: string }[]).map((t) => t.name).sort()).toEqual(['After', 'Declared Part']);
  });
});
