// The redirects a live site's answers are followed through, one at a time: the owner names the
// site (which may itself be on this machine or the local network), but where the site sends the
// import is the site's choice, so a redirect away from the owner's origin to a private, loopback
// or link-local address (a cloud's metadata service at 169.254.169.254, a router at 10.0.0.1) is
// refused before any request goes there, whether it names the address or a host resolving to one.
// The address is checked again as the connection is made, with the same lookup: a name that
// resolves to a public address for the check and to a private one for the request (DNS rebinding)
// is refused too.
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';

/** Redirects followed for one request before the import gives up. */
export const MAX_REDIRECTS = 10;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 included
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 included
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, the broadcast address included
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

/** An IPv6 address that embeds an IPv4 one (`::ffff:10.0.0.1`, `::ffff:a00:1`, `::10.0.0.1`): that IPv4 address. */
function embeddedIpv4(ip: string): string | undefined {
  const m = /^::(?:ffff:(?:0:)?)?(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = Number.parseInt(m[2]!, 16);
  const lo = Number.parseInt(m[3]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Whether an IP address (v4 or v6, without brackets) is private, loopback, link-local or otherwise not public. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return PRIVATE.check(ip, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIpv4(ip);
  if (v4 && isIP(v4) === 4) return PRIVATE.check(v4, 'ipv4');
  return PRIVATE.check(ip, 'ipv6');
}

/** The private address a URL's host is or resolves to, or undefined when it has none. */
export async function privateAddressOf(url: URL, resolve: typeof lookup = lookup): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivateAddress(host) ? host : undefined;
  let addresses: { address: string }[];
  try {
    addresses = await resolve(host, { all: true, verbatim: true });
  } catch {
    // A host that does not resolve is no address to refuse: the request then fails as any would.
    return undefined;
  }
  return addresses.find((a) => isPrivateAddress(a.address))?.address;
}

export class RedirectRefused extends Error {}

/** The address a connection away from the owner's origin was about to reach, refused. */
export class PrivateAtConnect extends Error {
  constructor(readonly address: string) {
    super(`resolves to ${address} as the connection is made`);
  }
}

/**
 * A lookup for connections away from the owner's origin: it resolves with `resolve` and refuses
 * a private address there, at connect time, so that what the request reaches is what was checked.
 */
function publicOnly(resolve: typeof lookup, refuse: (ip: string) => boolean): LookupFunction {
  return (host, options, callback) => {
    resolve(host, { all: true, verbatim: true }).then(
      (addresses) => {
        const refused = addresses.find((a) => refuse(a.address));
        if (refused) return callback(new PrivateAtConnect(refused.address), '', 4);
        if (options.all) return (callback as unknown as (err: null, all: typeof addresses) => void)(null, addresses);
        const first = addresses.find((a) => !options.family || a.family === options.family) ?? addresses[0]!;
        return callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 4),
    );
  };
}

/** Statuses whose answers have no body (a Response refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A GET away from the owner's origin, its connection made only to an address `refuse` lets
 * through (`publicOnly`), as a fetch Response; redirects are not followed.
 */
export function getPublic(url: URL, headers: Record<string, string>, resolve: typeof lookup = lookup, refuse = isPrivateAddress): Promise<Response> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((done, fail) => {
    const req = send(url, { method: 'GET', headers, lookup: publicOnly(resolve, refuse) }, (res: IncomingMessage) => {
      const answer = new Headers();
      for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) answer.append(name, v);
      const status = res.statusCode ?? 502;
      if (NO_BODY.has(status)) res.resume();
      done(new Response(NO_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers: answer }));
    });
    req.on('error', fail);
    req.end();
  });
}

/**
 * GETs `url`, following redirects by hand: within the owner's origin freely, with the
 * credentials; elsewhere without them (as fetch drops them), and never to a private, loopback or
 * link-local address, nor to another scheme than http and https, nor more than MAX_REDIRECTS times.
 */
export async function getFollowing(
  url: string,
  headers: Record<string, string>,
  credentials: Record<string, string>,
  doFetch: typeof fetch,
  resolve: typeof lookup = lookup,
): Promise<Response> {
  const origin = new URL(url).origin;
  let current = new URL(url);
  // Once away from the owner's origin, the credentials stay behind, even on the way back.
  let trusted = true;
  for (let hop = 0; ; hop++) {
    trusted &&= current.origin === origin;
    const res = await (current.origin === origin
      ? doFetch(current.href, { headers: trusted ? { ...headers, ...credentials } : headers, redirect: 'manual' })
      : getPublic(current, headers, resolve).catch((err: unknown) => {
          if (!(err instanceof PrivateAtConnect)) throw err;
          throw new RedirectRefused(`${current.href} ${err.message}, a private, loopback or link-local address away from ${origin}: the import does not follow it.`);
        }));
    const location = REDIRECTS.has(res.status) ? res.headers.get('location') : null;
    if (location === null) return res;
    await res.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new RedirectRefused(`${url} redirects more than ${MAX_REDIRECTS} times: the import stops.`);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new RedirectRefused(`${current.href} redirects to ${JSON.stringify(location.slice(0, 200))}, which is no URL.`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new RedirectRefused(`${current.href} redirects to ${next.href}: the import follows http and https only.`);
    if (next.origin !== origin) {
      const address = await privateAddressOf(next, resolve);
      if (address)
        throw new RedirectRefused(
          `${current.href} redirects to ${next.href}${address === next.hostname.replace(/^\[|\]$/g, '') ? '' : ` (${address})`}, a private, loopback or link-local address away from ${origin}: the import does not follow it.`,
        );
    }
    current = next;
  }
}
