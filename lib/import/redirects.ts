// The redirects a live site's answers are followed through, one at a time: the owner names the
// site (which may itself be on this machine or the local network), but where the site sends the
// import is the site's choice, so a redirect away from the owner's origin to a private, loopback
// or link-local address (a cloud's metadata service at 169.254.169.254, a router at 10.0.0.1) is
// refused before any request goes there, whether it names the address or a host resolving to one.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

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
    const res = await doFetch(current.href, { headers: trusted ? { ...headers, ...credentials } : headers, redirect: 'manual' });
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
