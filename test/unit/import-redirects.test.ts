// `--from`'s redirects, against a real HTTP server on 127.0.0.1: a redirect within the origin the
// owner gave is followed (with the credentials); one away from it to a private, loopback or
// link-local address, named or resolved, is refused with a clear message before any request goes there.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveSite, SiteError } from '#lib/import/live-source.js';
import { getFollowing, getPublic, isPrivateAddress, MAX_REDIRECTS, PrivateAtConnect, privateAddressOf, RedirectRefused } from '#lib/import/redirects.js';

describe('isPrivateAddress', () => {
  it('private, loopback, link-local, unspecified: IPv4, IPv6 and IPv4 in IPv6', () => {
    for (const ip of [
      '169.254.169.254',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '127.0.0.1',
      '127.8.9.10',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'febf::1',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::ffff:7f00:1',
    ])
      expect([ip, isPrivateAddress(ip)]).toEqual([ip, true]);
  });
  it('public addresses, and what is no address', () => {
    for (const ip of ['93.184.216.34', '172.32.0.1', '172.15.255.255', '192.169.0.1', '8.8.8.8', '2606:4700::1111', 'fec0::1', '::ffff:8.8.8.8', 'example.org', ''])
      expect([ip, isPrivateAddress(ip)]).toEqual([ip, false]);
  });
  it('a host name is judged by what it resolves to', async () => {
    const resolve = (async (host: string) => (host === 'metadata.test' ? [{ address: '169.254.169.254', family: 4 }] : [{ address: '93.184.216.34', family: 4 }])) as never;
    expect(await privateAddressOf(new URL('http://metadata.test/x'), resolve)).toBe('169.254.169.254');
    expect(await privateAddressOf(new URL('http://public.test/x'), resolve)).toBeUndefined();
    expect(await privateAddressOf(new URL('http://localhost/'))).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(await privateAddressOf(new URL('http://[fe80::1]/'))).toBe('fe80::1');
    // The URL parser's forms of an IPv4 address are the address.
    expect(await privateAddressOf(new URL('http://0x7f.1/'))).toBe('127.0.0.1');
  });
});

describe('LiveSite.get behind redirects (a real server on 127.0.0.1)', () => {
  let server: Server;
  let base: string;
  let port: number;
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  const requested: string[] = [];
  const site = () =>
    new LiveSite({
      url: base,
      user: 'admin',
      appPassword: 'abcd efgh',
      retries: 0,
      fetch: ((url: string, init: RequestInit) => {
        requested.push(String(url));
        return fetch(url, init);
      }) as typeof fetch,
    });

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? '', headers: req.headers });
      const to: Record<string, string> = {
        '/wp-json/meta': 'http://169.254.169.254/latest/meta-data/',
        '/wp-json/ten': 'http://10.0.0.1/wp-json/',
        '/wp-json/v6': `http://[::1]:${port}/wp-json/`,
        '/wp-json/mapped': 'http://[::ffff:a9fe:a9fe]/latest/',
        '/wp-json/name': `http://localhost:${port}/wp-json/`,
        '/wp-json/same': '/wp-json/target',
        '/wp-json/loop': '/wp-json/loop',
        '/wp-json/ftp': 'ftp://127.0.0.1/',
      };
      const path = (req.url ?? '').split('?')[0]!;
      if (to[path]) {
        res.writeHead(path === '/wp-json/same' ? 301 : 302, { location: to[path] });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path, authorized: req.headers.authorization === `Basic ${Buffer.from('admin:abcdefgh').toString('base64')}` }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const refusal = async (route: string): Promise<string> => {
    const before = requested.length;
    const err = await site()
      .get(route)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(SiteError);
    // The one request made is the site's own: nothing went where it redirected.
    expect(requested.slice(before)).toEqual([`${base}/wp-json${route}`]);
    return (err as Error).message;
  };

  it('refuses a redirect to the metadata address and to 10.0.0.1, with no request made there', async () => {
    expect(await refusal('/meta')).toBe(
      `${base}/wp-json/meta redirects to http://169.254.169.254/latest/meta-data/, a private, loopback or link-local address away from ${base}: the import does not follow it.`,
    );
    expect(await refusal('/ten')).toMatch(/redirects to http:\/\/10\.0\.0\.1\/wp-json\/, a private, loopback or link-local address/);
    expect(requested.some((u) => u.includes('169.254') || u.includes('10.0.0.1'))).toBe(false);
  });

  it('refuses IPv6 loopback, IPv4 in IPv6, and a host name resolving to loopback', async () => {
    expect(await refusal('/v6')).toMatch(/redirects to http:\/\/\[::1\]:\d+\/wp-json\/, a private/);
    expect(await refusal('/mapped')).toMatch(/redirects to http:\/\/\[::ffff:a9fe:a9fe\]\/latest\/, a private/);
    expect(await refusal('/name')).toMatch(/redirects to http:\/\/localhost:\d+\/wp-json\/ \((127\.0\.0\.1|::1)\), a private/);
  });

  it('refuses another scheme and an endless loop, each with its reason', async () => {
    expect(await refusal('/ftp')).toMatch(/redirects to ftp:\/\/127\.0\.0\.1\/: the import follows http and https only/);
    const err = await site()
      .get('/loop')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((err as Error).message).toBe(`${base}/wp-json/loop redirects more than ${MAX_REDIRECTS} times: the import stops.`);
  });

  it('follows a redirect within the origin the owner gave, with the credentials', async () => {
    const r = await site().get('/same');
    expect(r).toMatchObject({ status: 200, body: { path: '/wp-json/target', authorized: true } });
    expect(seen.at(-1)?.path).toBe('/wp-json/target');
  });
});

describe('a redirect away from the origin, checked again as its connection is made', () => {
  let server: Server;
  let port: number;
  const paths: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      paths.push(req.url ?? '');
      if (req.url === '/start') res.writeHead(302, { location: `http://rebind.test:${port}/secret` }).end();
      else if (req.url === '/empty') res.writeHead(204, { 'x-seen': req.headers.accept ?? '' }).end();
      else if (req.url === '/moved') res.writeHead(301, { location: '/elsewhere' }).end();
      else res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] }).end(JSON.stringify({ path: req.url, auth: req.headers.authorization ?? null }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('refuses a name that resolves to a public address for the check and to a private one for the request', async () => {
    let lookups = 0;
    // DNS rebinding: the first answer is public, every later one loopback.
    const rebinding = (async () => (lookups++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }])) as never;
    const err = await getFollowing(`http://127.0.0.1:${port}/start`, { accept: 'application/json' }, { authorization: 'Basic x' }, fetch, rebinding).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RedirectRefused);
    expect((err as Error).message).toBe(
      `http://rebind.test:${port}/secret resolves to 127.0.0.1 as the connection is made, a private, loopback or link-local address away from http://127.0.0.1:${port}: the import does not follow it.`,
    );
    expect(lookups).toBe(2);
    expect(paths).not.toContain('/secret');
  });

  it('answers what the address it let through answered, as a fetch Response, without following its redirects', async () => {
    const toLoopback = (async () => [{ address: '127.0.0.1', family: 4 }]) as never;
    const open = () => false;
    const ok = await getPublic(new URL(`http://somewhere.test:${port}/data`), { accept: 'application/json' }, toLoopback, open);
    expect([ok.status, ok.headers.get('content-type'), ok.headers.get('set-cookie'), await ok.json()]).toEqual([
      200,
      'application/json',
      'a=1, b=2',
      { path: '/data', auth: null },
    ]);
    const empty = await getPublic(new URL(`http://somewhere.test:${port}/empty`), { accept: 'text/x-test' }, toLoopback, open);
    expect([empty.status, empty.headers.get('x-seen'), await empty.text()]).toEqual([204, 'text/x-test', '']);
    const moved = await getPublic(new URL(`http://somewhere.test:${port}/moved`), {}, toLoopback, open);
    expect([moved.status, moved.headers.get('location')]).toEqual([301, '/elsewhere']);
    // With the default check, the same address is refused at connect time.
    await expect(getPublic(new URL(`http://somewhere.test:${port}/data`), {}, toLoopback)).rejects.toBeInstanceOf(PrivateAtConnect);
  });
});
