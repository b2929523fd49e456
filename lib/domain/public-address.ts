// Which IP addresses a webhook may be sent to: public unicast only. A webhook's URL is chosen by
// its subscriber, so without this check a delivery could reach the VPC, the host itself or the
// instance metadata service (169.254.169.254, fd00:ec2::254) on the subscriber's behalf.
// Addresses that embed an IPv4 address (IPv4-mapped and -compatible IPv6, NAT64, 6to4) are judged
// by the address they embed. Host names are resolved by the caller; the WHATWG URL parser already
// turns decimal, hex and octal IPv4 spellings (`http://2130706433/`, `http://0x7f.1/`) into dotted
// form, and parseIp below reads the same spellings, so that no spelling slips through.
import { isIPv4, isIPv6 } from 'node:net';

/** Why an address is refused; undefined for a public unicast address. */
export type Refusal = 'unspecified' | 'loopback' | 'private' | 'link-local' | 'shared' | 'unique-local' | 'multicast' | 'reserved' | 'metadata';

interface Range {
  bytes: number[];
  bits: number;
  why: Refusal;
}

const v4 = (text: string, bits: number, why: Refusal): Range => ({ bytes: text.split('.').map(Number), bits, why });

/** IANA's special-purpose IPv4 registry, less what is globally reachable. The metadata address first: it is link-local too. */
const V4_RANGES: readonly Range[] = [
  v4('169.254.169.254', 32, 'metadata'),
  v4('0.0.0.0', 8, 'unspecified'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'shared'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'reserved'),
  v4('192.88.99.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'reserved'),
  v4('198.51.100.0', 24, 'reserved'),
  v4('203.0.113.0', 24, 'reserved'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'),
];

function v6(text: string, bits: number, why: Refusal): Range {
  return { bytes: [...ipv6Bytes(text)!], bits, why };
}

/** IPv6 ranges refused outright (the ones embedding IPv4 are handled before these). */
const V6_RANGES: readonly Range[] = [
  v6('fd00:ec2::254', 128, 'metadata'),
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('100::', 64, 'reserved'),
  v6('2001:db8::', 32, 'reserved'),
  v6('2001::', 23, 'reserved'),
  v6('fc00::', 7, 'unique-local'),
  v6('fe80::', 10, 'link-local'),
  v6('fec0::', 10, 'reserved'),
  v6('ff00::', 8, 'multicast'),
  v6('::', 96, 'reserved'),
];

function inRange(bytes: readonly number[], range: Range): boolean {
  for (let bit = 0; bit < range.bits; bit += 8) {
    const take = Math.min(8, range.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (range.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

/** An IPv4 address in any spelling inet_aton reads (1 to 4 parts, decimal, 0x hex or 0 octal), as 4 bytes. */
export function ipv4Bytes(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length < 1 || parts.length > 4) return undefined;
  const values: number[] = [];
  for (const part of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(part)) n = part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) n = Number.parseInt(part.slice(1), 8);
    else if (/^(?:0|[1-9]\d*)$/.test(part)) n = Number(part);
    else return undefined;
    values.push(n);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255) || last >= 256 ** (4 - values.length)) return undefined;
  const bytes = [...values];
  for (let i = 4 - values.length - 1; i >= 0; i--) bytes.push(Math.floor(last / 256 ** i) % 256);
  return bytes;
}

/** An IPv6 address (brackets and a zone allowed, a dotted IPv4 tail too) as 16 bytes. */
export function ipv6Bytes(text: string): number[] | undefined {
  let s = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (!isIPv6(s)) return undefined;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const b = ipv4Bytes(tail[1]!)!;
    s = `${s.slice(0, tail.index)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, rest] = s.includes('::') ? s.split('::') : [s, undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) return undefined;
  return groups.flatMap((g) => {
    const n = Number.parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

/** The IPv4 address an IPv6 address stands for or embeds (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(b: readonly number[]): number[] | undefined {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible; :: and ::1 are not addresses of this form).
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12);
  if (zeros(0, 12) && !zeros(12, 15)) return b.slice(12);
  // 64:ff9b::/96 and 64:ff9b:1::/48 (NAT64).
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) return b.slice(12);
  // 2002:a.b.c.d::/48 (6to4).
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6);
  return undefined;
}

/** Why an IP address (IPv4 in any spelling, or IPv6) may not be a webhook's target; undefined when it may. Throws for a non-address. */
export function refusalOf(address: string): Refusal | undefined {
  const text = address.replace(/^\[(.*)\]$/, '$1');
  if (isIPv6(text.replace(/%.*$/, ''))) {
    const bytes = ipv6Bytes(text)!;
    const inner = embeddedV4(bytes);
    if (inner) return V4_RANGES.find((r) => inRange(inner, r))?.why;
    return V6_RANGES.find((r) => inRange(bytes, r))?.why;
  }
  const bytes = ipv4Bytes(text);
  if (!bytes) throw new Error(`not an IP address: ${address}`);
  return V4_RANGES.find((r) => inRange(bytes, r))?.why;
}

/** Whether a host name is an IP address literal (in any spelling refusalOf reads). */
export const isIpLiteral = (host: string): boolean => isIPv4(host) || isIPv6(host.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '')) || ipv4Bytes(host) !== undefined;
