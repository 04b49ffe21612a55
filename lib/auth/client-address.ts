import ipaddr from 'ipaddr.js';
import { inRanges, type AddressList } from '@/lib/net/address-list';

export const UNKNOWN_ADDRESS = 'unknown';

/** IPv4-mapped IPv6 (`::ffff:1.2.3.4`, as dual-stack sockets report) as plain IPv4; anything else as given. */
function normalise(address: string): string {
  const bare = address.trim().replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(bare) ? ipaddr.process(bare).toString() : bare.slice(0, 64);
}

/**
 * The address a sign-in attempt came from. X-Forwarded-For is believed only as far as TRUSTED_PROXIES vouch
 * for it: from the socket's peer leftwards, each trusted hop names the one before it; the first address
 * that is not a trusted proxy is the client. With no trusted proxies that is the peer itself, whatever
 * the header says (a client can write anything there).
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: AddressList,
): string {
  // No recorded peer (a host without our HTTP server, e.g. serverless): the nearest hop's entry is all there is.
  if (!peer) return normalise(forwardedFor?.split(',').at(-1) ?? '') || UNKNOWN_ADDRESS;
  const chain = [
    ...(forwardedFor ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
    peer,
  ].map(normalise);
  for (let i = chain.length - 1; i > 0; i--) if (!inRanges(chain[i]!, trusted)) return chain[i]!;
  return chain[0]!;
}

/**
 * The network an address is counted by as well: an IPv6 address's /64 (one subscriber gets a whole /64, so
 * hopping addresses inside it must not reset a limit), an IPv4 address itself, anything else as given.
 */
export function addressNetwork(address: string): string {
  if (!ipaddr.IPv6.isValid(address)) return address;
  const parts = ipaddr.IPv6.parse(address).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
