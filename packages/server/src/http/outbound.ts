import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Agent, fetch as undiciFetch } from 'undici';

/** A `fetch` for requests Parley makes to URLs its users chose (webhooks). */
export type OutboundFetch = (
  url: string,
  init: Parameters<typeof undiciFetch>[1],
) => ReturnType<typeof undiciFetch>;

/** undici, imported at the first outbound request (a process that sends no webhook never loads it). */
let undici: Promise<{ Agent: typeof Agent; fetch: typeof undiciFetch }> | undefined;
const loadUndici = () => {
  undici ??= import('undici');
  return undici;
};

/** Thrown when a URL resolves to an address outbound requests may not reach. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
}

/**
 * Addresses that are not the public Internet: loopback, private networks (RFC 1918, unique local), link-local
 * (cloud metadata services such as 169.254.169.254 live there), carrier-grade NAT, "this network",
 * benchmarking, multicast and reserved ranges.
 */
function privateRanges(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const)
    list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
    ['64:ff9b::', 96],
  ] as const)
    list.addSubnet(net, prefix, 'ipv6');
  return list;
}

/**
 * Whether an IP address is private in the sense of {@link privateRanges}; IPv4-mapped IPv6 addresses
 * (`::ffff:127.0.0.1`) are judged by their IPv4 address.
 * @example isPrivateAddress('169.254.169.254') // true
 */
export function isPrivateAddress(address: string, ranges: BlockList = privateRanges()): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return ranges.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return ranges.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The `fetch` for webhooks. With `blockPrivate`, a request whose host is or resolves to a private address
 * fails with {@link BlockedAddressError} before any byte is sent. The check runs in the connection's own DNS
 * lookup, so the address judged is the address connected to (a name that resolves differently a moment
 * later, DNS rebinding, gains nothing). Without it, this is plain fetch.
 * @example const post = outboundFetch({ blockPrivate: true }); await post(url, { method: 'POST', body })
 */
export function outboundFetch(options: {
  blockPrivate: boolean;
  /** Who the refusal names and the setting that changes it (default: webhooks). */
  refusal?: { who: string; setting: string };
}): OutboundFetch {
  if (!options.blockPrivate) return async (url, init) => (await loadUndici()).fetch(url, init);
  const ranges = privateRanges();
  const { who, setting } = options.refusal ?? {
    who: 'webhooks',
    setting: 'PARLEY_WEBHOOK_BLOCK_PRIVATE_ADDRESSES',
  };
  const guardedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const blocked = addresses.find((a) => isPrivateAddress(a.address, ranges));
      if (blocked) {
        return callback(
          new BlockedAddressError(
            `${hostname} resolves to ${blocked.address}, a private address that ${who} may not reach (${setting})`,
          ),
          '',
          0,
        );
      }
      if (lookupOptions.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      return callback(null, first.address, first.family);
    });
  };
  let dispatcher: Agent | undefined;
  return async (url, init) => {
    // A literal IP in the URL never goes through a DNS lookup: judge it here.
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0 && isPrivateAddress(host, ranges)) {
      throw new BlockedAddressError(`${host} is a private address that ${who} may not reach (${setting})`);
    }
    const { Agent, fetch } = await loadUndici();
    dispatcher ??= new Agent({ connect: { lookup: guardedLookup } });
    return fetch(url, { ...init, dispatcher });
  };
}
