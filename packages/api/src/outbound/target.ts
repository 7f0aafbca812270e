// Where webhooks may be sent. A target URL is http(s) without credentials;
// its host, once resolved, must not be in a private, loopback, link-local or
// other special-purpose range (RFC 6890 and its successors), unless the
// operator allows it (OUTBOUND_ALLOW_PRIVATE, tests and development only,
// which also allows plain http). The check runs when an endpoint is created
// and again at every delivery, on the very address the connection uses
// (`guardedLookup`), so a name that resolves elsewhere later (DNS rebinding)
// is refused.
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promises as dns } from 'node:dns';

const SPECIAL_V4: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const SPECIAL_V6: readonly [string, number][] = [
  // ::/96 holds :: and ::1 and the deprecated IPv4-compatible addresses (::127.0.0.1 is ::7f00:1).
  ['::', 96],
  ['::ffff:0:0', 96],
  // IPv4-translated addresses (RFC 2765): ::ffff:0:127.0.0.1 is ::ffff:0:7f00:1.
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const special = new BlockList();
for (const [net, prefix] of SPECIAL_V4) special.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of SPECIAL_V6) special.addSubnet(net, prefix, 'ipv6');

/** True for an address in a private, loopback, link-local or other special-purpose range. */
export function isSpecialAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return special.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return special.check(mapped[1], 'ipv4');
    return special.check(address, 'ipv6');
  }
  return true;
}

export class TargetError extends Error {}

/** The URL of a webhook target, checked in form (not yet resolved); throws TargetError. */
export function parseTarget(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetError('url: not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw new TargetError('url: must be https://');
  if (url.username || url.password) throw new TargetError('url: must not carry credentials');
  if (url.hash) throw new TargetError('url: must not have a fragment');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) && isSpecialAddress(host)) throw new TargetError('url: the address is in a private, loopback, link-local or reserved range');
  return url;
}

/** Resolve a target's host and refuse it when any address is special; throws TargetError. */
export async function checkResolvedTarget(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return; // checked by parseTarget
  let addresses: LookupAddress[];
  try {
    addresses = await dns.lookup(host, { all: true, verbatim: true });
  } catch {
    throw new TargetError('url: the host name does not resolve');
  }
  if (addresses.length === 0 || addresses.some((a) => isSpecialAddress(a.address))) {
    throw new TargetError('url: the host resolves to a private, loopback, link-local or reserved address');
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that resolves as usual and refuses special
 * addresses: the connection is made only to an address that passed.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      if (!allowPrivate && (list.length === 0 || list.some((a) => isSpecialAddress(a.address)))) {
        const refused = new Error(`refused: ${hostname} resolves to a private, loopback, link-local or reserved address`) as NodeJS.ErrnoException;
        refused.code = 'EADDRREFUSED';
        return callback(refused, []);
      }
      if ((options as { all?: boolean }).all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
