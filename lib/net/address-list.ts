import ipaddr from 'ipaddr.js';

/** Host names (exact, lower case) and IP ranges, from a comma-separated list of names, IPs and CIDRs. */
export type AddressList = { hosts: Set<string>; ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] };

const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

export const stripBrackets = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

/**
 * Parses `OUTBOUND_ALLOWED_HOSTS` (names allowed) or `TRUSTED_PROXIES` (IPs and CIDRs only).
 * Throws with the offending entry, so a typo stops the server at start instead of silently allowing nothing.
 */
export function parseAddressList(spec: string | undefined, options: { hostNames: boolean }): AddressList {
  const list: AddressList = { hosts: new Set(), ranges: [] };
  for (const entry of (spec ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean)) {
    const bare = stripBrackets(entry);
    if (entry.includes('/') && ipaddr.isValidCIDR(entry)) {
      const [net, bits] = ipaddr.parseCIDR(entry);
      list.ranges.push(
        net.kind() === 'ipv6' && (net as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96
          ? [(net as ipaddr.IPv6).toIPv4Address(), bits - 96]
          : [net, bits],
      );
    } else if (ipaddr.isValid(bare)) {
      const ip = ipaddr.process(bare);
      list.ranges.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
    } else if (options.hostNames && HOST_NAME.test(entry.replace(/\.$/, ''))) list.hosts.add(entry.replace(/\.$/, ''));
    else throw new Error(`"${entry}" is not ${options.hostNames ? 'a host name, IP or CIDR' : 'an IP or CIDR'}`);
  }
  return list;
}

/** True when the address (IPv4-mapped IPv6 judged as its IPv4) lies in one of the list's ranges. */
export function inRanges(address: string, list: AddressList): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return list.ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
}

/** A zod superRefine helper: the parse error as the variable's message. */
export function addressListIssue(spec: string | undefined, options: { hostNames: boolean }): string | null {
  try {
    parseAddressList(spec, options);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
