import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { asRecord, asString, readJson } from '../read';
import type { ProviderTransport } from '../transport';
import { ProviderReadError } from '../types';
import { MASTODON_RULES } from './classifier';

type InstanceRequest = {
  base: string;
  headers: Record<string, string>;
  outbound?: OutboundPolicy;
  options: () => { timeoutMs?: number; signal?: AbortSignal };
};

const DOMAIN = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::\d{1,5})?$/;

/**
 * The domain in the instance's handles, as the instance itself names it: GET /api/v1/instance (`uri`, a bare
 * domain on Mastodon, a URL on some servers; `account_domain` where handles differ from the web host), else
 * /api/v2/instance (`domain`) on a server that dropped v1. Never the host of the URL typed: that may be a proxy
 * (`127.0.0.1:3383`) or the web domain of an instance whose handles live on another one.
 */
export async function readInstanceDomain(request: InstanceRequest, send: ProviderTransport): Promise<string> {
  const read = (version: 'v1' | 'v2') =>
    readJson(
      {
        url: `${request.base}/api/${version}/instance`,
        headers: request.headers,
        outbound: request.outbound,
        ...request.options(),
      },
      MASTODON_RULES,
      send,
    );
  let body: Record<string, unknown>;
  try {
    body = asRecord((await read('v1')).body);
  } catch (error) {
    const status = error instanceof ProviderReadError ? error.classification.httpStatus : undefined;
    if (status !== 404 && status !== 410) throw error;
    body = asRecord((await read('v2')).body);
  }
  const domain = domainOf(asString(body.account_domain) ?? asString(body.domain) ?? asString(body.uri));
  if (!domain)
    throw new ProviderReadError('Not a Mastodon instance', {
      outcome: 'failed',
      rule: 'not-an-instance',
      reason: 'The instance answer names no domain (uri, domain).',
    });
  return domain;
}

function domainOf(value: string | undefined): string | null {
  if (!value) return null;
  let host = value.trim().toLowerCase();
  if (/^https?:\/\//.test(host)) {
    try {
      host = new URL(host).host;
    } catch {
      return null;
    }
  }
  return DOMAIN.test(host) ? host : null;
}

/** The account's page from its own answer (`url`), when it is an http(s) URL. */
export function profileUrlOf(value: unknown): string | null {
  const url = asString(value);
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}
