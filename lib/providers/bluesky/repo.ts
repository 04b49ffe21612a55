import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import type { RawOutcome, RecentPost } from '../types';
import { atUri, parsePostRef, type RecordRef } from './at-uri';

export type CallOptions = { timeoutMs?: number; signal?: AbortSignal };
export type StrongRef = { uri: string; cid: string };

/** One account's repository on its PDS, over XRPC: what the publish side and the reads share. */
export type Repo = {
  base: string;
  /** The account's DID (its repo). */
  did: string;
  auth: Record<string, string>;
  outbound?: OutboundPolicy;
  send: ProviderTransport;
  xrpc: (nsid: string, params?: Record<string, string>) => string;
  getRecord: (ref: RecordRef, options: CallOptions) => Promise<RawOutcome>;
  /**
   * bsky.app (the public network's AppView) for a PDS of the public network; any other PDS's posts are not on
   * bsky.app, so their link is the at:// URI (the PDS URL goes with it in the evidence); the sandbox (a trusted
   * app origin) shows the record itself.
   */
  postUrl: (uri: string) => string | undefined;
};

export function openRepo(
  account: { baseUrl: string; platformUserId: string; accessToken: string; outbound?: OutboundPolicy },
  send: ProviderTransport,
): Repo {
  const base = account.baseUrl.replace(/\/+$/, '');
  const auth = { authorization: `Bearer ${account.accessToken}` };
  const xrpc = (nsid: string, params?: Record<string, string>) =>
    `${base}/xrpc/${nsid}${params ? `?${new URLSearchParams(params)}` : ''}`;
  return {
    base,
    did: account.platformUserId,
    auth,
    outbound: account.outbound,
    send,
    xrpc,
    getRecord: (ref, options) =>
      send({
        method: 'GET',
        url: xrpc('com.atproto.repo.getRecord', ref),
        headers: auth,
        outbound: account.outbound,
        ...options,
      }),
    postUrl: (uri) => {
      const ref = parsePostRef(uri);
      if (!ref) return undefined;
      if (account.outbound?.trustedOrigin) return xrpc('com.atproto.repo.getRecord', ref);
      if (onPublicNetwork(base)) return `https://bsky.app/profile/${ref.repo}/post/${ref.rkey}`;
      return atUri(ref);
    },
  };
}

/**
 * The public Bluesky network: the bsky.social entryway and its PDS hosts (`*.host.bsky.network`), whose posts
 * the bsky.app AppView shows. A self-hosted PDS may not be crawled by it at all.
 */
export function onPublicNetwork(baseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  return url.protocol === 'https:' && (host === 'bsky.social' || host.endsWith('.bsky.network'));
}

/** A `{ uri, cid }` pair (getRecord's and listRecords' records, a reply's root and parent). */
export function strongRef(value: Record<string, unknown>): StrongRef | null {
  const uri = asString(value.uri);
  const cid = asString(value.cid);
  return uri?.startsWith('at://') && cid ? { uri, cid } : null;
}

/** A `{ uri, cid, value }` record as the reconciler compares posts. */
export function toRecentPost(repo: Repo, record: Record<string, unknown>): RecentPost {
  const value = asRecord(record.value);
  const uri = String(record.uri);
  return {
    id: uri,
    text: typeof value.text === 'string' ? value.text : '',
    createdAt: new Date(String(value.createdAt)),
    inReplyTo: asString(asRecord(asRecord(value.reply).parent).uri) ?? null,
    url: repo.postUrl(uri),
  };
}
