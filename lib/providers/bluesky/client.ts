import type { OutboundPolicy } from '@/lib/net/outbound-guard';
import { graphemeCount } from '@/lib/posts/text';
import { NO_SOCKET, sendOnce } from '@/lib/net/send';
import { mediaNotPosted, notCalled, readMedia } from '../media-step';
import { rejectedInput, withTiming } from '../publish-result';
import { asRecord, asString } from '../read';
import type { ProviderTransport } from '../transport';
import type {
  AccountCredentials,
  Classification,
  ProviderClient,
  PublishInput,
  PublishResult,
  RawOutcome,
} from '../types';
import { POST_COLLECTION, atUri, parsePostRef, type RecordRef } from './at-uri';
import { classifyBluesky, xrpcError } from './classifier';
import { buildFacets } from './facets';
import { blueskyPostMetrics, readBlueskyFollowers } from './metrics';
import { deleteRecord, listRecentRecords, readBackRecord, whoAmISession } from './reads';
import { openRepo, strongRef, type CallOptions, type Repo, type StrongRef } from './repo';
import { openSession, renewSession, type SessionResult } from './session';
import { blueskyMeta } from './meta';
import { recordKeyFor } from './tid';

type BlueskyAccount = {
  baseUrl: string;
  /** The account's DID. */
  platformUserId: string;
  accessToken: string;
  credentials?: AccountCredentials;
  outbound?: OutboundPolicy;
};

/** A blob as uploadBlob answers it and a record embeds it. */
export type BlobRef = { $type: 'blob'; ref: { $link: string }; mimeType: string; size: number };
/** An image of a post: its uploaded blob and the alt text people using screen readers hear. */
export type BlueskyImage = { blob: BlobRef; altText: string };
export type UploadResult =
  { ok: true; blob: BlobRef } | { ok: false; classification: Classification; raw?: RawOutcome };

export type BlueskyClient = ProviderClient & {
  /**
   * A post with up to four images: `media` (the app's images) are uploaded first with uploadImage; `images` are
   * blobs already uploaded.
   */
  publish(input: PublishInput & { images?: BlueskyImage[] }): Promise<PublishResult>;
  /**
   * uploadBlob: blobs are addressed by their content, so uploading the same bytes again is harmless (a PDS
   * keeps an unreferenced blob only for a while, so upload right before the post that uses it).
   */
  uploadImage(bytes: Uint8Array, mimeType: string, options?: CallOptions): Promise<UploadResult>;
  createSession(identifier: string, password: string, options?: CallOptions): Promise<SessionResult>;
  refreshSession(refreshJwt: string, options?: CallOptions): Promise<SessionResult>;
};

export const TEXT_LIMIT = 300;
const DEFAULT_TIMEOUT_MS = 10_000;
type ReplyRefs = { root: StrongRef; parent: StrongRef };

/**
 * AT Protocol (a PDS's XRPC API) with an app-password session. Every attempt of a delivery writes the same
 * record: putRecord under a key derived from the delivery (tid.ts) with `swapRecord: null`. In the PDS
 * (packages/pds/src/api/com/atproto/repo/putRecord.ts and actor-store/repo/transactor.ts, formatCommit), an
 * existing record makes the write an update, and an update with `swapCid === null` throws BadRecordSwapError,
 * answered as 400 `InvalidSwap`; the very same record again is a no-op answered 200 without a commit. Writes
 * to one repo run in one SQLite transaction per actor (retried whole on a busy database), so two racing
 * attempts cannot both create. A resend thus never makes a second post nor overwrites the first, and one
 * getRecord by the key settles an unknown outcome (reads.ts).
 */
export function createBlueskyClient(account: BlueskyAccount, send: ProviderTransport = sendOnce): BlueskyClient {
  const repo = openRepo(account, send);
  const sessions = { base: repo.base, outbound: account.outbound, send };

  async function publish(input: PublishInput & { images?: BlueskyImage[] }): Promise<PublishResult> {
    const startedAt = new Date();
    if (input.kind === 'dm') return rejectedInput('Bluesky direct messages are not supported.', startedAt);
    const media = [...(input.images ?? [])];
    if (media.length + (input.media?.length ?? 0) > blueskyMeta.media.maxPerPost)
      return rejectedInput(`Bluesky posts take at most ${blueskyMeta.media.maxPerPost} images.`, startedAt);
    if (input.kind === 'reply' && !input.inReplyTo)
      return rejectedInput('A reply needs the at:// URI or bsky.app link of the post it answers.', startedAt);
    if (graphemeCount(input.text) > TEXT_LIMIT)
      return rejectedInput(`Bluesky posts are at most ${TEXT_LIMIT} characters (graphemes).`, startedAt);
    const parentRef = input.kind === 'reply' ? parsePostRef(input.inReplyTo!) : null;
    if (input.kind === 'reply' && !parentRef)
      return rejectedInput('The post replied to must be an at:// URI or a bsky.app post link.', startedAt);

    // The reads and uploads before the write (reply target, images, mentions) share the call's budget; the write
    // gets what is left.
    const deadline = startedAt.getTime() + (input.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const left = () => ({ timeoutMs: Math.max(1, deadline - Date.now()), signal: input.signal });
    if (input.media?.length) {
      // Blobs are content-addressed: uploading the same bytes again on a later attempt gives the same blob, so the
      // record (and its key) repeats exactly. A failed upload ends the attempt before the record is written.
      const read = await readMedia(input.media);
      if (!read.ok) return withTiming(read.classification, read.raw, startedAt);
      for (const [i, item] of input.media.entries()) {
        const uploaded = await uploadImage(read.bytes[i]!, item.mimeType, left());
        if (!uploaded.ok)
          return withTiming(
            mediaNotPosted('Bluesky', uploaded.classification),
            uploaded.raw ?? notCalled('upload refused'),
            startedAt,
          );
        media.push({ blob: uploaded.blob, altText: item.altText });
      }
    }
    let reply: ReplyRefs | undefined;
    if (parentRef) {
      const parent = await readReplyTarget(repo, parentRef, left());
      if ('classification' in parent) return withTiming(parent.classification, parent.raw, startedAt);
      reply = parent;
    }
    const facets = await buildFacets(input.text, (handle) => resolveHandle(repo, handle, left()));
    if (deadline - Date.now() < 1) {
      return withTiming(
        {
          outcome: 'not_sent',
          rule: 'bluesky-out-of-time',
          reason: 'Reading the reply target and mentions took the whole call time; nothing was written.',
        },
        {
          type: 'error',
          code: 'NOT_SENT',
          name: 'Error',
          message: 'out of time',
          timedOut: true,
          connection: NO_SOCKET,
        },
        startedAt,
      );
    }

    // `createdAt` is frozen at the first attempt (the publisher passes it), so the key and the record repeat.
    const createdAt = input.createdAt ?? startedAt;
    const rkey = recordKeyFor(input.idempotencyKey, createdAt);
    const record = {
      $type: POST_COLLECTION,
      text: input.text,
      createdAt: createdAt.toISOString(),
      ...(facets.length > 0 ? { facets } : {}),
      ...(reply ? { reply } : {}),
      ...(media.length > 0
        ? { embed: { $type: 'app.bsky.embed.images', images: media.map((m) => ({ image: m.blob, alt: m.altText })) } }
        : {}),
    };
    const raw = await send({
      method: 'POST',
      url: repo.xrpc('com.atproto.repo.putRecord'),
      headers: repo.auth,
      outbound: account.outbound,
      json: { repo: repo.did, collection: POST_COLLECTION, rkey, record, swapRecord: null },
      ...left(),
    });
    const classification = classifyBluesky(raw);
    if (classification.outcome === 'sent') {
      classification.url = repo.postUrl(classification.externalId!);
      // Where the record lives: an at:// link alone does not say which PDS to ask.
      classification.evidence = { ...classification.evidence, pds: repo.base };
    }
    if (classification.outcome === 'ambiguous') {
      // The key this attempt wrote under: the reconciler reads it and checks it agrees with its own derivation.
      const uri = atUri({ repo: repo.did, collection: POST_COLLECTION, rkey });
      classification.evidence = { ...classification.evidence, uri, rkey };
    }
    return withTiming(classification, raw, startedAt);
  }

  async function uploadImage(bytes: Uint8Array, mimeType: string, options: CallOptions = {}): Promise<UploadResult> {
    const { maxBytes } = blueskyMeta.media;
    const types: readonly string[] = blueskyMeta.media.types;
    const refuse = (reason: string): UploadResult => ({
      ok: false,
      classification: { outcome: 'failed', rule: 'invalid-input', reason },
    });
    if (!types.includes(mimeType)) return refuse(`Bluesky takes ${types.join(', ')} images.`);
    if (bytes.length > maxBytes) return refuse(`Bluesky images are at most ${maxBytes / 1_000_000} MB.`);
    const raw = await send({
      method: 'POST',
      url: repo.xrpc('com.atproto.repo.uploadBlob'),
      headers: repo.auth,
      outbound: account.outbound,
      bytes: { data: bytes, contentType: mimeType },
      ...options,
    });
    const blob = raw.type === 'response' && raw.status === 200 ? asRecord(asRecord(raw.body).blob) : {};
    const link = asString(asRecord(blob.ref).$link);
    if (link && typeof blob.size === 'number')
      return {
        ok: true,
        blob: { $type: 'blob', ref: { $link: link }, mimeType: asString(blob.mimeType) ?? mimeType, size: blob.size },
      };
    return { ok: false, classification: classifyBluesky(raw), raw };
  }

  return {
    provider: 'bluesky',
    publish,
    uploadImage,
    listRecent: (input) => listRecentRecords(repo, input),
    readBack: (input) => readBackRecord(repo, input),
    whoAmI: (options = {}) => whoAmISession(repo, options),
    deletePost: (id, options = {}) => deleteRecord(repo, id, options),
    postMetrics: blueskyPostMetrics(repo),
    readFollowers: (options = {}) => readBlueskyFollowers(repo, options),
    createSession: (identifier, password, options) => openSession(sessions, { identifier, password }, options),
    refreshSession: (refreshJwt, options) =>
      renewSession(
        sessions,
        refreshJwt,
        { identifier: account.credentials?.identifier, password: account.credentials?.appPassword },
        options,
      ),
  };
}

/** The parent's strong reference and its thread's root (the parent's own root, or the parent itself). */
async function readReplyTarget(
  repo: Repo,
  ref: RecordRef,
  options: CallOptions,
): Promise<ReplyRefs | { raw: RawOutcome; classification: Classification }> {
  const raw = await repo.getRecord(ref, options);
  const body = raw.type === 'response' ? asRecord(raw.body) : {};
  const parent = strongRef(body);
  if (raw.type === 'response' && raw.status === 200 && parent) {
    const root = strongRef(asRecord(asRecord(asRecord(body.value).reply).root)) ?? parent;
    return { root, parent };
  }
  if (raw.type === 'response' && raw.status === 400 && xrpcError(raw.body).error === 'RecordNotFound') {
    const reason = 'The post replied to does not exist (or was deleted).';
    return {
      raw,
      classification: { outcome: 'failed', rule: 'bluesky-reply-target-missing', httpStatus: 400, reason },
    };
  }
  // Nothing was written yet: a target that cannot be read now is "not sent", tried again later.
  const read = classifyBluesky(raw);
  if (read.outcome === 'failed' || read.outcome === 'not_sent') return { raw, classification: read };
  const reason = 'The post replied to could not be read, so nothing was written; it is tried again later.';
  return { raw, classification: { ...read, outcome: 'not_sent', rule: 'bluesky-reply-target-unreadable', reason } };
}

/** A handle's DID, or null when it does not resolve (the mention then stays plain text). */
async function resolveHandle(repo: Repo, handle: string, options: CallOptions): Promise<string | null> {
  const raw = await repo.send({
    method: 'GET',
    url: repo.xrpc('com.atproto.identity.resolveHandle', { handle }),
    outbound: repo.outbound,
    ...options,
  });
  const did = raw.type === 'response' && raw.status === 200 ? asString(asRecord(raw.body).did) : undefined;
  return did?.startsWith('did:') ? did : null;
}
