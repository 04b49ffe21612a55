import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { DEFAULT_TIMEOUT_MS, sendOnce } from '@/lib/net/send';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import { ProviderReadError, type RawOutcome, type RecentPost } from '../types';
import { classifyThreads, graphError } from './classifier';

export type ThreadsAccount = {
  baseUrl: string;
  platformUserId: string;
  accessToken: string;
  outbound?: OutboundPolicy;
};
export type CallOptions = { timeoutMs?: number; signal?: AbortSignal };

const VERSION = 'v1.0';
/** The listing refuses an earlier `since` (the launch of Threads). */
const THREADS_EPOCH_S = 1_688_540_400;
export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
const STATUSES = new Set<string>(['IN_PROGRESS', 'FINISHED', 'PUBLISHED', 'ERROR', 'EXPIRED']);

export type ContainerRead =
  | { kind: 'status'; status: ContainerStatus; errorMessage: string | null; raw: RawOutcome }
  /** Threads does not know the container (any more): it is not a post (a published one reads PUBLISHED). */
  | { kind: 'missing'; raw: RawOutcome }
  | { kind: 'unreadable'; raw: RawOutcome };

/** One Graph request per call through the transport (never retried); the token travels in the header. */
export function createGraph(account: ThreadsAccount, send: ProviderTransport = sendOnce) {
  const base = account.baseUrl.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${account.accessToken}` };
  const user = encodeURIComponent(account.platformUserId);
  const url = (path: string, query: Record<string, string | undefined> = {}) => {
    const params = new URLSearchParams(
      Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
    );
    return `${base}/${VERSION}${path}${params.size > 0 ? `?${params}` : ''}`;
  };
  const request = (method: 'GET' | 'POST' | 'DELETE', target: string, options: CallOptions) =>
    send({ method, url: target, headers, outbound: account.outbound, ...options });

  /** A GET whose 2xx JSON is returned; anything else throws ProviderReadError with its classification. */
  async function read(path: string, query: Record<string, string | undefined>, options: CallOptions) {
    const raw = await request('GET', url(path, query), options);
    if (raw.type === 'response' && raw.status >= 200 && raw.status < 300 && raw.body !== null)
      return asRecord(raw.body);
    const classification = classifyThreads(raw);
    throw new ProviderReadError(`Could not read from Threads: ${classification.reason}`, classification);
  }

  return {
    base,
    /**
     * POST /{user}/threads: a TEXT container (a reply when `replyTo`), an IMAGE one (Threads fetches `image_url`
     * itself), a carousel item, or a CAROUSEL of item containers. Parameters in the query string, as Meta's examples.
     */
    createContainer: (
      input: {
        text?: string;
        replyTo?: string;
        image?: { url: string; altText: string };
        carouselItem?: boolean;
        children?: string[];
      },
      options: CallOptions,
    ) =>
      request(
        'POST',
        url(`/${user}/threads`, {
          media_type: input.children ? 'CAROUSEL' : input.image ? 'IMAGE' : 'TEXT',
          text: input.text,
          reply_to_id: input.replyTo,
          image_url: input.image?.url,
          alt_text: input.image?.altText,
          is_carousel_item: input.carouselItem ? 'true' : undefined,
          children: input.children?.join(','),
        }),
        options,
      ),

    publishContainer: (containerId: string, options: CallOptions) =>
      request('POST', url(`/${user}/threads_publish`, { creation_id: containerId }), options),

    /** GET /{container}?fields=status,error_message: a read, safe to repeat. */
    async containerStatus(containerId: string, options: CallOptions): Promise<ContainerRead> {
      const raw = await request(
        'GET',
        url(`/${encodeURIComponent(containerId)}`, { fields: 'status,error_message' }),
        options,
      );
      const body = raw.type === 'response' && raw.status >= 200 && raw.status < 300 ? asRecord(raw.body) : null;
      const status = asString(body?.status);
      if (status && STATUSES.has(status))
        return {
          kind: 'status',
          status: status as ContainerStatus,
          errorMessage: asString(body?.error_message) ?? null,
          raw,
        };
      const error = graphError(raw);
      // "Object … does not exist" (100/33) or "Media Not Found" (24/4279009).
      if ((error?.code === 100 && error.subcode === 33) || (error?.code === 24 && error.subcode === 4279009))
        return { kind: 'missing', raw };
      return { kind: 'unreadable', raw };
    },

    /** GET /{user}/threads (top-level posts) or /{user}/replies, newest first, following the `after` cursor. */
    async list(
      edge: 'threads' | 'replies',
      input: { since: Date; until?: Date; maxPages: number } & CallOptions,
    ): Promise<RecentPost[]> {
      const posts: RecentPost[] = [];
      // `until` must not be later than Threads' clock: near now it is left out (no upper bound).
      const until = input.until && input.until.getTime() < Date.now() - 5_000 ? input.until : undefined;
      let after: string | undefined;
      for (let page = 0; page < input.maxPages; page++) {
        const body = await read(
          `/${user}/${edge}`,
          {
            fields: 'id,text,timestamp,permalink,is_reply,replied_to',
            since: String(Math.max(THREADS_EPOCH_S, Math.floor(input.since.getTime() / 1000))),
            until: until ? String(Math.ceil(until.getTime() / 1000)) : undefined,
            limit: '100',
            after,
          },
          input,
        );
        for (const item of Array.isArray(body.data) ? body.data : []) {
          const media = asRecord(item);
          const id = asString(media.id);
          const createdAt = new Date(String(media.timestamp).replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
          if (!id || Number.isNaN(createdAt.getTime())) continue;
          posts.push({
            id,
            text: String(media.text ?? ''),
            createdAt,
            inReplyTo: asString(asRecord(media.replied_to).id) ?? null,
            url: asString(media.permalink),
          });
        }
        const paging = asRecord(body.paging);
        after = asString(asRecord(paging.cursors).after);
        if (!asString(paging.next) || !after) break;
      }
      return posts;
    },

    /** A media object's permalink (best effort after a publish: an empty answer is no failure). */
    async permalink(mediaId: string, options: CallOptions): Promise<string | undefined> {
      const raw = await request('GET', url(`/${encodeURIComponent(mediaId)}`, { fields: 'permalink' }), options);
      return raw.type === 'response' && raw.status < 300 ? asString(asRecord(raw.body).permalink) : undefined;
    },

    me: (options: CallOptions) => read('/me', { fields: 'id,username,name' }, options),

    deleteMedia: (mediaId: string, options: CallOptions) =>
      request('DELETE', url(`/${encodeURIComponent(mediaId)}`), options),

    /** GET /access_token with th_exchange_token: the short-lived token from the code exchange for a 60-day one. */
    exchange: (clientSecret: string, options: CallOptions) =>
      send({
        method: 'GET',
        url: `${base}/access_token?${new URLSearchParams({ grant_type: 'th_exchange_token', client_secret: clientSecret, access_token: account.accessToken })}`,
        outbound: account.outbound,
        ...options,
      }),

    /** GET /refresh_access_token (no version prefix; the token goes as a parameter, as documented). */
    refresh: (options: CallOptions) =>
      send({
        method: 'GET',
        url: `${base}/refresh_access_token?${new URLSearchParams({ grant_type: 'th_refresh_token', access_token: account.accessToken })}`,
        outbound: account.outbound,
        ...options,
      }),
  };
}

export type ThreadsGraph = ReturnType<typeof createGraph>;

/** One publish attempt's time: every step shares the caller's whole-call budget (it must end before the lease). */
export function callBudget(timeoutMs: number | undefined, signal?: AbortSignal) {
  const deadline = Date.now() + (timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return {
    left: () => deadline - Date.now(),
    options: (): CallOptions => ({ timeoutMs: Math.max(1, deadline - Date.now()), signal }),
  };
}
