import dns, { type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { getEnv } from '@/lib/env';
import { inRanges, parseAddressList, stripBrackets, type AddressList } from './address-list';

/**
 * The outbound guard for every call to a platform: an admin types a base URL, and the server then calls
 * it with a bearer token on every publish. Without this, that URL could reach our own network (SSRF).
 * Only global unicast addresses are called, unless OUTBOUND_ALLOWED_HOSTS names the host, IP or range.
 */

export const OUTBOUND_REFUSED = 'OUTBOUND_REFUSED';
/** A platform answer larger than this is cut off and read as a body error (1 MB). */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** Public unicast addresses that still answer with cloud credentials (Azure wireserver; the rest are link-local/CGNAT/ULA). */
const METADATA_ADDRESSES = new Set(['168.63.129.16', '169.254.169.254', '100.100.100.200', 'fd00:ec2::254']);

export type AllowList = AddressList;

/** `OUTBOUND_ALLOWED_HOSTS`: comma-separated host names, IPs or CIDRs. */
export const parseAllowList = (spec: string | undefined): AllowList => parseAddressList(spec, { hostNames: true });

/** Why an address may not be called, or null when it may. IPv4-mapped IPv6 is judged as the IPv4 it carries. */
export function addressRefusal(address: string, allow: AllowList): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  if (inRanges(address, allow)) return null;
  if (ipv4Compatible(address)) return 'a deprecated IPv4-compatible (::/96) address';
  const ip = ipaddr.process(address);
  if (METADATA_ADDRESSES.has(ip.toString())) return 'a cloud metadata address';
  const range = ip.range();
  // Only global unicast: loopback, private, link-local, CGNAT, ULA, multicast, unspecified, reserved,
  // NAT64/6to4/Teredo (which embed IPv4 addresses) and the rest are all refused.
  return range === 'unicast' ? null : `a ${range} address`;
}

/**
 * `::a.b.c.d` (RFC 4291's deprecated IPv4-compatible range, ::/96): ipaddr.js calls it global unicast (and reads the
 * dotted spelling as IPv4-mapped), yet a stack may route it to the IPv4 it carries. `::` and `::1` keep their own names.
 */
function ipv4Compatible(address: string): boolean {
  if (!ipaddr.IPv6.isValid(address)) return false;
  if (/^::(?!ffff:)[0-9]+\.[0-9.]+$/i.test(address)) return true;
  const parts = ipaddr.IPv6.parse(address).parts;
  return parts.slice(0, 6).every((p) => p === 0) && !(parts[6] === 0 && parts[7]! <= 1);
}

/** Base URLs an admin may store: absolute http(s), no credentials, query or fragment. */
export function baseUrlRefusal(baseUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must start with http:// or https://';
  if (url.username || url.password) return 'must not contain a user name or password';
  if (baseUrl.includes('?')) return 'must not contain a query (?…)';
  if (baseUrl.includes('#')) return 'must not contain a fragment (#…)';
  return null;
}

/**
 * How one client may call out. `trustedOrigin` is the app's own origin, set only for accounts whose stored
 * base URL is relative (the built-in sandbox): an admin-typed absolute URL is never trusted, even to this app.
 */
export type OutboundPolicy = { trustedOrigin?: string; baseUrlProblem?: string };

export type OutboundCheck = { ok: true; trusted: boolean } | { ok: false; reason: string };

/** The pre-flight check of one request URL; host names are checked again at connect time (outboundLookup). */
export function checkOutboundUrl(
  url: URL,
  policy: OutboundPolicy = {},
  allow: AllowList = defaultAllowList(),
): OutboundCheck {
  if (policy.baseUrlProblem) return { ok: false, reason: `The account's base URL ${policy.baseUrlProblem}.` };
  if (url.username || url.password) return { ok: false, reason: 'The URL contains credentials.' };
  if (url.hash) return { ok: false, reason: 'The URL contains a fragment.' };
  if (policy.trustedOrigin && url.origin === new URL(policy.trustedOrigin).origin) return { ok: true, trusted: true };
  // The URL parser has already turned 2130706433, 0x7f.1 and 0177.1 into 127.0.0.1.
  const host = stripBrackets(url.hostname);
  if (ipaddr.isValid(host)) {
    const refusal = addressRefusal(host, allow);
    if (refusal) return { ok: false, reason: `The platform's address is ${refusal}; calls to it are not allowed.` };
  }
  return { ok: true, trusted: false };
}

/**
 * A dns lookup that returns only addresses the guard allows; the socket connects to exactly those, so a
 * second DNS answer cannot swap in an internal address after the check (DNS rebinding).
 */
export function createOutboundLookup(allowList: () => AllowList, resolve: Resolver = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const allow = allowList();
      const named = allow.hosts.has(hostname.toLowerCase().replace(/\.$/, ''));
      const vetted = named ? addresses : addresses.filter((a) => addressRefusal(a.address, allow) === null);
      if (vetted.length === 0) {
        const why = addresses[0] ? addressRefusal(addresses[0].address, allow) : 'no address';
        const refused = Object.assign(new Error(`${hostname} resolves to ${why}; calls to it are not allowed.`), {
          code: OUTBOUND_REFUSED,
        });
        return callback(refused, '', 4);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, vetted);
      callback(null, vetted[0]!.address, vetted[0]!.family);
    });
  };
}

type Resolver = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

let cached: { spec: string | undefined; list: AllowList } | undefined;

/** The allow-list from the environment (blank: none). */
export function defaultAllowList(): AllowList {
  const spec = getEnv().OUTBOUND_ALLOWED_HOSTS;
  if (!cached || cached.spec !== spec) cached = { spec, list: parseAllowList(spec) };
  return cached.list;
}

export const outboundLookup = createOutboundLookup(defaultAllowList);
