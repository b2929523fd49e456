// Where a webhook may be sent: an https URL whose host resolves to public addresses only
// (lib/domain/public-address.ts). The check runs when a subscription is made, and again before
// every delivery, whose connection also resolves the host through guardedLookup, so that a name
// that resolved to a public address at first and to a private one later (DNS rebinding) is
// refused at the moment of connecting. A local run (config.webhookLocalTargets) may also send over
// plain HTTP to its own loopback addresses.
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { lookup as lookupCallback } from 'node:dns';
import { config, type Config } from '#lib/runtime/config.js';
import { isIpLiteral, refusalOf } from '#lib/domain/public-address.js';

/** The longest URL a subscription takes. */
export const MAX_URL_LENGTH = 2000;

const LOCAL_NAMES = /^(?:localhost|[a-z0-9-]+\.localhost)\.?$/i;

/** Why an address may not be sent to (with the local runtime's exception for loopback); undefined when it may. */
function addressRefusal(address: string, cfg: Config): string | undefined {
  const why = refusalOf(address);
  if (why === undefined || (why === 'loopback' && cfg.webhookLocalTargets)) return undefined;
  return `${address} is a ${why} address`;
}

/** Why a URL may not be a webhook's target; undefined when it may. Resolves its host name. */
export async function targetError(raw: string, cfg: Config = config()): Promise<string | undefined> {
  if (raw.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  // The URL parser has already turned decimal and hex IPv4 spellings into dotted form.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const local = cfg.webhookLocalTargets && (LOCAL_NAMES.test(host) || (isIpLiteral(host) && refusalOf(host) === 'loopback'));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    return cfg.webhookLocalTargets ? 'must be an https URL (or http to this machine: 127.0.0.1, [::1], localhost)' : 'must be an https URL';
  }
  if (isIpLiteral(host)) return addressRefusal(host, cfg) && `must reach a public address: ${addressRefusal(host, cfg)}`;
  if (LOCAL_NAMES.test(host) && !cfg.webhookLocalTargets) return 'must reach a public address: localhost is this machine';
  let addresses: LookupAddress[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    return `host ${host} could not be resolved`;
  }
  if (addresses.length === 0) return `host ${host} could not be resolved`;
  for (const { address } of addresses) {
    const why = addressRefusal(address, cfg);
    if (why) return `must reach a public address: ${host} resolves to ${why}`;
  }
  return undefined;
}

/** A refused address at connection time. */
export class RefusedAddressError extends Error {
  readonly code = 'EREFUSEDADDRESS';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http's request that resolves as Node does and fails the connection when any
 * address the name resolves to may not be sent to.
 */
export function guardedLookup(cfg: Config = config()) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    lookupCallback(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      const bad = list.map((a) => addressRefusal(a.address, cfg)).find(Boolean);
      if (bad || list.length === 0) return callback(new RefusedAddressError(`refused to connect: ${bad ?? `${hostname} has no address`}`), []);
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
