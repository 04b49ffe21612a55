import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { asRecord, asString, readJson } from '../read';
import type { ProviderTransport } from '../transport';
import type { RecentPost } from '../types';
import { LINKEDIN_RULES } from './classifier';
import { fromLittleText } from './little-text';

/** The LinkedIn-Version this app is written against (a monthly version, supported at least a year). */
export const DEFAULT_LINKEDIN_VERSION = '202607';

export type LinkedinAccount = {
  baseUrl: string;
  platformUserId: string;
  accessToken: string;
  outbound?: OutboundPolicy;
};
export type LinkedinOptions = { version?: string };
export type CallOptions = { timeoutMs?: number; signal?: AbortSignal };

export const REAL_API_HOST = 'api.linkedin.com';

/** What every call of one account shares: where, with which headers, how a post is linked. */
export function linkedinApi(account: LinkedinAccount, send: ProviderTransport, options: LinkedinOptions = {}) {
  const base = account.baseUrl.replace(/\/+$/, '');
  const auth = { authorization: `Bearer ${account.accessToken}` };
  // Versioned endpoints (/rest) need both; the OpenID userinfo (/v2) is unversioned.
  const rest = {
    ...auth,
    'linkedin-version': options.version ?? DEFAULT_LINKEDIN_VERSION,
    'x-restli-protocol-version': '2.0.0',
  };
  const real = new URL(base).host === REAL_API_HOST;

  return {
    base,
    auth,
    rest,
    send,
    outbound: account.outbound,
    author: account.platformUserId,
    /** The feed page on LinkedIn; in the sandbox, the dialect's own read of the post. */
    postUrl: (urn: string) =>
      real ? `https://www.linkedin.com/feed/update/${urn}` : `${base}/rest/posts/${encodeURIComponent(urn)}`,
    postPath: (urn: string) => `${base}/rest/posts/${encodeURIComponent(urn)}`,
    /** A GET on a versioned endpoint; a non-2xx answer throws ProviderReadError. */
    getRest: (url: string, call: CallOptions = {}) =>
      readJson({ url, headers: rest, outbound: account.outbound, ...call }, LINKEDIN_RULES, send),
  };
}

export type LinkedinApi = ReturnType<typeof linkedinApi>;

/** A Posts API element as a post people read (commentary decoded from little text). */
export function toRecentPost(api: LinkedinApi, element: unknown): RecentPost | null {
  const post = asRecord(element);
  const id = asString(post.id);
  const createdAt = Number(post.createdAt ?? post.publishedAt);
  if (!id || !Number.isFinite(createdAt)) return null;
  return {
    id,
    text: fromLittleText(typeof post.commentary === 'string' ? post.commentary : ''),
    createdAt: new Date(createdAt),
    inReplyTo: null,
    url: api.postUrl(id),
  };
}
