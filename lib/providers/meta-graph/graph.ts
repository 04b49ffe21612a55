import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { sendOnce, type MultipartBody } from '@/lib/net/send';
import type { CallOptions } from '../call-budget';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import { ProviderReadError, type RawOutcome, type RecentPost } from '../types';
import { graphError, type GraphClassifier } from './classifier';
import type { MetaNetwork } from './network';

export type { CallOptions };

export type GraphAccount = {
  baseUrl: string;
  platformUserId: string;
  accessToken: string;
  outbound?: OutboundPolicy;
};

export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
const STATUSES = new Set<string>(['IN_PROGRESS', 'FINISHED', 'PUBLISHED', 'ERROR', 'EXPIRED']);

export type ContainerRead =
  | { kind: 'status'; status: ContainerStatus; errorMessage: string | null; raw: RawOutcome }
  /** The platform does not know the container (any more): it is not a post (a published one reads PUBLISHED). */
  | { kind: 'missing'; raw: RawOutcome }
  | { kind: 'unreadable'; raw: RawOutcome };

/** A container's parameters as Meta's examples send them (query string); undefined ones are left out. */
export type ContainerParams = Record<string, string | undefined>;

/** Graph's `2017-08-31T18:10:30+0000` (no colon in the offset) as a Date; invalid when it is not one. */
const graphTimestamp = (value: unknown) => new Date(String(value).replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));

/** One Graph request per call through the transport (never retried); the token travels in the header. */
export function createGraph(
  network: MetaNetwork,
  classify: GraphClassifier,
  account: GraphAccount,
  send: ProviderTransport = sendOnce,
) {
  const base = account.baseUrl.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${account.accessToken}` };
  const user = encodeURIComponent(account.platformUserId);
  const url = (path: string, query: Record<string, string | undefined> = {}) => {
    const params = new URLSearchParams(
      Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
    );
    return `${base}/${network.version}${path}${params.size > 0 ? `?${params}` : ''}`;
  };
  const request = (method: 'GET' | 'POST' | 'DELETE', target: string, options: CallOptions) =>
    send({ method, url: target, headers, outbound: account.outbound, ...options });

  /** A GET whose 2xx JSON is returned; anything else throws ProviderReadError with its classification. */
  async function read(path: string, query: Record<string, string | undefined>, options: CallOptions) {
    const raw = await request('GET', url(path, query), options);
    if (raw.type === 'response' && raw.status >= 200 && raw.status < 300 && raw.body !== null)
      return asRecord(raw.body);
    const classification = classify(raw);
    throw new ProviderReadError(`Could not read from ${network.label}: ${classification.reason}`, classification);
  }

  /** A long-lived token call (no version prefix; the token goes as a parameter, as documented). */
  const tokenCall = (path: string, query: Record<string, string>, options: CallOptions) =>
    send({
      method: 'GET',
      url: `${base}/${path}?${new URLSearchParams({ ...query, access_token: account.accessToken })}`,
      outbound: account.outbound,
      ...options,
    });

  return {
    base,
    network,
    classify,

    /** POST /{user}/{createEdge}: a media container (not a post: nothing is public until it is published). */
    createContainer: (params: ContainerParams, options: CallOptions) =>
      request('POST', url(`/${user}/${network.createEdge}`, params), options),

    publishContainer: (containerId: string, options: CallOptions) =>
      request('POST', url(`/${user}/${network.publishEdge}`, { creation_id: containerId }), options),

    /** GET /{container}?fields=<status>,<error>: a read, safe to repeat. */
    async containerStatus(containerId: string, options: CallOptions): Promise<ContainerRead> {
      const raw = await request(
        'GET',
        url(`/${encodeURIComponent(containerId)}`, { fields: `${network.statusField},${network.errorField}` }),
        options,
      );
      const body = raw.type === 'response' && raw.status >= 200 && raw.status < 300 ? asRecord(raw.body) : null;
      const status = asString(body?.[network.statusField]);
      if (status && STATUSES.has(status))
        return {
          kind: 'status',
          status: status as ContainerStatus,
          errorMessage: asString(body?.[network.errorField]) ?? null,
          raw,
        };
      const error = graphError(raw);
      // "Object … does not exist" (100/33) or "Media Not Found" (24/4279009).
      if ((error?.code === 100 && error.subcode === 33) || (error?.code === 24 && error.subcode === 4279009))
        return { kind: 'missing', raw };
      return { kind: 'unreadable', raw };
    },

    /** GET /{user}/{edge} (Threads: threads or replies; Instagram: media), newest first, following `after`. */
    async list(
      edge: string,
      input: { since: Date; until?: Date; maxPages: number } & CallOptions,
    ): Promise<RecentPost[]> {
      const posts: RecentPost[] = [];
      const timeField = network.timeField ?? 'timestamp';
      const permalinkField = network.permalinkField ?? 'permalink';
      // `until` must not be later than the platform's clock: near now it is left out (no upper bound).
      const until = input.until && input.until.getTime() < Date.now() - 5_000 ? input.until : undefined;
      let after: string | undefined;
      for (let page = 0; page < input.maxPages; page++) {
        const body = await read(
          `/${user}/${edge}`,
          {
            fields: `id,${network.textField},${timeField},${permalinkField},${network.listFields}`,
            since: String(Math.max(network.epochSeconds, Math.floor(input.since.getTime() / 1000))),
            until: until ? String(Math.ceil(until.getTime() / 1000)) : undefined,
            limit: '100',
            after,
          },
          input,
        );
        for (const item of Array.isArray(body.data) ? body.data : []) {
          const media = asRecord(item);
          const id = asString(media.id);
          const createdAt = graphTimestamp(media[timeField]);
          if (!id || Number.isNaN(createdAt.getTime())) continue;
          posts.push({
            id,
            text: String(media[network.textField] ?? ''),
            createdAt,
            inReplyTo: asString(asRecord(media.replied_to).id) ?? null,
            url: asString(media[permalinkField]),
          });
        }
        const paging = asRecord(body.paging);
        after = asString(asRecord(paging.cursors).after);
        if (!asString(paging.next) || !after) break;
      }
      return posts;
    },

    /** POST /{media}/comments?message=…: one comment of the account's own on a media object (no idempotency). */
    comment: (mediaId: string, message: string, options: CallOptions) =>
      request('POST', url(`/${encodeURIComponent(mediaId)}/comments`, { message }), options),

    /**
     * GET /{media}/comments: the comments on one media object, everyone's, following `after` to the end; more
     * than `maxPages` pages throws (unreadable). Each is a RecentPost replying to that media; `author` is the
     * commenter's username, null where Graph does not say.
     */
    async comments(
      mediaId: string,
      input: { maxPages: number } & CallOptions,
    ): Promise<(RecentPost & { author: string | null })[]> {
      const comments: (RecentPost & { author: string | null })[] = [];
      let after: string | undefined;
      for (let page = 0; page < input.maxPages; page++) {
        const body = await read(
          `/${encodeURIComponent(mediaId)}/comments`,
          { fields: 'id,text,timestamp,username', limit: '50', after },
          input,
        );
        for (const item of Array.isArray(body.data) ? body.data : []) {
          const comment = asRecord(item);
          const id = asString(comment.id);
          const createdAt = graphTimestamp(comment.timestamp);
          if (!id || Number.isNaN(createdAt.getTime())) continue;
          comments.push({
            id,
            text: String(comment.text ?? ''),
            createdAt,
            inReplyTo: mediaId,
            author: asString(comment.username) ?? null,
          });
        }
        const paging = asRecord(body.paging);
        after = asString(asRecord(paging.cursors).after);
        if (!asString(paging.next) || !after) return comments;
      }
      // More comments than the pages read: the listing has no time bound, so ours may be on a page not read, and
      // a listing cut short is no proof of absence.
      const reason = `${network.label} lists more comments on ${mediaId} than ${input.maxPages} pages: ours may be among those not read`;
      throw new ProviderReadError(reason, { outcome: 'ambiguous', rule: `${network.name}-comments-truncated`, reason });
    },

    /** A media object's permalink (best effort after a publish: an empty answer is no failure). */
    async permalink(mediaId: string, options: CallOptions): Promise<string | undefined> {
      const field = network.permalinkField ?? 'permalink';
      const raw = await request('GET', url(`/${encodeURIComponent(mediaId)}`, { fields: field }), options);
      return raw.type === 'response' && raw.status < 300 ? asString(asRecord(raw.body)[field]) : undefined;
    },

    me: (options: CallOptions) => read('/me', { fields: network.meFields }, options),

    /** GET /{id}?fields=…: any node the token may read (a Facebook video's status, a post), 2xx JSON or a read error. */
    readNode: (id: string, query: Record<string, string | undefined>, options: CallOptions) =>
      read(`/${encodeURIComponent(id)}`, query, options),

    /** GET /me/{edge}: the token owner's own edge (Facebook's /me/accounts, the pages a user token administers). */
    readMine: (edge: string, query: Record<string, string | undefined>, options: CallOptions) =>
      read(`/me/${encodeURIComponent(edge)}`, query, options),

    /** POST /{user}/{edge} with a form or multipart body (Facebook's feed, photos and video upload phases). */
    postEdge: (
      edge: string,
      body: { form: Record<string, string> } | { multipart: MultipartBody },
      options: CallOptions & { base?: string },
    ) => {
      const { base: other, ...call } = options;
      const target = other
        ? `${other.replace(/\/+$/, '')}/${network.version}/${user}/${edge}`
        : url(`/${user}/${edge}`);
      return send({ method: 'POST', url: target, headers, outbound: account.outbound, ...body, ...call });
    },

    /** GET /{id}/{edge}?…, the answer as it came (a deleted object's error is an answer, not a failure). */
    getObjectEdge: (id: string, edge: string | null, query: Record<string, string | undefined>, options: CallOptions) =>
      request('GET', url(`/${encodeURIComponent(id)}${edge ? `/${edge}` : ''}`, query), options),

    /** Any other read of the account's own (Instagram's content_publishing_limit). */
    readEdge: (edge: string, query: Record<string, string | undefined>, options: CallOptions) =>
      read(`/${user}/${edge}`, query, options),

    deleteMedia: (mediaId: string, options: CallOptions) =>
      request('DELETE', url(`/${encodeURIComponent(mediaId)}`), options),

    /** GET /access_token with the exchange grant: the short-lived token from the code exchange for a 60-day one. */
    exchange: (clientSecret: string, options: CallOptions) =>
      tokenCall('access_token', { grant_type: network.exchangeGrant, client_secret: clientSecret }, options),

    /** GET /refresh_access_token: another 60 days. */
    refresh: (options: CallOptions) => tokenCall('refresh_access_token', { grant_type: network.refreshGrant }, options),
  };
}

export type Graph = ReturnType<typeof createGraph>;
