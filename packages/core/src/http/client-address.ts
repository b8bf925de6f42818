import { BlockList, isIPv4, isIPv6 } from 'node:net';

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** `::ffff:192.0.2.1` (an IPv4 client of a dual-stack listener) is `192.0.2.1`. */
export const plainAddress = (address: string): string => MAPPED_IPV4.exec(address)?.[1] ?? address;

/** The 16-bit groups of an IPv6 address, `::` expanded (an embedded IPv4 tail counts as two groups). */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('%', 1)[0]?.split('::') ?? [];
  const groupsOf = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const left = groupsOf(head);
  if (tail === undefined) return left;
  const right = groupsOf(tail);
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
}

/**
 * Who a connection or request counts against: an IPv4 address, or the /64 network of an IPv6 one (the
 * smallest block a site or a home is given, so one client cannot count as 2⁶⁴ different ones).
 */
export function clientKey(address: string): string {
  const plain = plainAddress(address);
  if (!isIPv6(plain)) return plain;
  return `${ipv6Groups(plain)
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** `trustedProxies` entries: an address or a CIDR range. */
export function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  if (rest.length > 0) return false;
  const max = isIPv4(address) ? 32 : isIPv6(address) ? 128 : -1;
  if (max < 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
}

/** Whether an address (of a connection) is one of the `trustedProxies` (addresses and CIDR ranges). */
export function trustedProxyCheck(entries: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    const plain = plainAddress(address);
    return list.check(plain, isIPv6(plain) ? 'ipv6' : 'ipv4');
  };
}
