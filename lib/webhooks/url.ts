import dns, { type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { stripBrackets } from '@/lib/net/address-list';
import { addressRefusal, defaultAllowList, type AllowList } from '@/lib/net/outbound-guard';

export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: HostResolver = (hostname) => dns.promises.lookup(hostname, { all: true });

/** The shape of an endpoint URL: absolute http(s), no user name or password, no fragment, at most 2,000 characters. */
export function webhookUrlShapeRefusal(raw: string): string | null {
  if (raw.length > 2000) return 'The URL is longer than 2,000 characters.';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a full URL, such as https://example.com/webhooks.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The URL must start with http:// or https://.';
  if (url.username || url.password) return 'The URL must not contain a user name or password.';
  if (raw.includes('#')) return 'The URL must not contain a fragment (#…).';
  return null;
}

/**
 * Why an endpoint URL may not be stored, or null. Besides the shape, its host must be a public address, or a
 * name all of whose addresses are public, unless OUTBOUND_ALLOWED_HOSTS names it. The sender checks again at
 * every connection (lib/net/outbound-guard.ts), so a name re-pointed at an internal address later is still refused.
 */
export async function webhookUrlRefusal(
  raw: string,
  options: { allow?: AllowList; resolve?: HostResolver } = {},
): Promise<string | null> {
  const shape = webhookUrlShapeRefusal(raw);
  if (shape) return shape;
  const allow = options.allow ?? defaultAllowList();
  const host = stripBrackets(new URL(raw).hostname).toLowerCase().replace(/\.$/, '');
  if (ipaddr.isValid(host)) {
    const refusal = addressRefusal(host, allow);
    return refusal ? `The URL points to ${refusal}; webhooks are only sent to public addresses.` : null;
  }
  if (allow.hosts.has(host)) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch {
    return `The host ${host} could not be resolved.`;
  }
  if (addresses.length === 0) return `The host ${host} could not be resolved.`;
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, allow);
    if (refusal) return `The host ${host} resolves to ${refusal}; webhooks are only sent to public addresses.`;
  }
  return null;
}
