/** The sandbox network's model, independent of where it is stored (Postgres or memory). */

import type { ProviderName } from '@/lib/providers/types';

/** Every network has a sandbox dialect. */
export type Platform = ProviderName;
export type SandboxPostKind = 'post' | 'reply' | 'dm';

/**
 * How a sandbox account's server treats a resend and shows a post back (sandbox/behaviour/profiles.ts); each reproduces
 * a real server. The one list: the Postgres check (sandbox/db/schema.ts), the API and the Sandbox page read it.
 */
export const PROFILES = [
  'mastodon-modern',
  'mastodon-legacy',
  'mastodon-nokey',
  'mastodon-markdown',
  'x',
  'x-nodedupe',
  'x-premium',
  'linkedin',
  'threads',
  'instagram',
  'tiktok',
  'tiktok-unaudited',
  'facebook',
  'youtube',
  'tiktok-private',
  'bluesky',
  'plain',
] as const;
export type Profile = (typeof PROFILES)[number];

export type SandboxAccount = {
  id: string;
  platform: Platform;
  platformUserId: string;
  handle: string;
  displayName: string | null;
};

export type SandboxPost = {
  id: string;
  accountId: string;
  kind: SandboxPostKind;
  text: string;
  inReplyToId: string | null;
  recipientId: string | null;
  idempotencyKey: string | null;
  /** Bluesky: the record key (unique among the account's live posts, as a repo path holds one record). */
  recordKey: string | null;
  /** Bluesky: the record as written (text, createdAt, facets, reply), returned by getRecord; TikTok: `{ tiktok: { mode, privacyLevel } }`. */
  record: Record<string, unknown> | null;
  createdAt: Date;
  /** Soft delete: the platform's records keep the copy (the control timeline shows it), its APIs do not. */
  deletedAt: Date | null;
  /** The images the post shows, as the platform received them. */
  media: SandboxPostMedia[];
};

/** One image of a post as the timeline shows it: what arrived (by content hash), with its alt text. */
export type SandboxPostMedia = { type: string; altText: string; sha256: string };

/**
 * An upload of any dialect (X media/upload, Mastodon /api/v2/media, LinkedIn images): not public until a post
 * names it. `readyAt` models processing (Mastodon's 202); `uploaded` is false while a LinkedIn image awaits its bytes.
 */
export type SandboxMedia = SandboxPostMedia & {
  id: string;
  accountId: string;
  size: number;
  readyAt: Date;
  uploaded: boolean;
  createdAt: Date;
};

export type FaultSettings = {
  profile: Profile;
  latencyMs: number;
  timeoutBeforeCommit: number;
  timeoutAfterCommit: number;
  errorAfterCommit: number;
  resetAfterCommit: number;
  rateLimited: number;
  /** The post is created this long after the request arrived, whether or not the client still waits. */
  processingMs: number;
  /** Probability that a write is slow (takes `processingMs`). */
  processingShare: number;
  /** A new post appears in listings only this long after it was created. */
  readLagMs: number;
  /** Probability that a listing read fails with the platform's 503. */
  listingUnavailable: number;
  /** Replies, mentions and DMs people send the account per day (sandbox/behaviour/inbound.ts); 0: none. */
  inboundPerDay: number;
};

/** Settings as written: without a profile, each account gets its platform's default (friendly) one. */
export type FaultsUpdate = Omit<FaultSettings, 'profile'> & { profile?: Profile };

export const NO_FAULTS: Omit<FaultSettings, 'profile'> = {
  latencyMs: 0,
  timeoutBeforeCommit: 0,
  timeoutAfterCommit: 0,
  errorAfterCommit: 0,
  resetAfterCommit: 0,
  rateLimited: 0,
  processingMs: 0,
  processingShare: 1,
  readLagMs: 0,
  listingUnavailable: 0,
  inboundPerDay: 0,
};

/** A post as the platform stores it; which rule applies (key, duplicate text) is decided in profiles.ts. */
export type NewSandboxPost = {
  account: SandboxAccount;
  kind: SandboxPostKind;
  text: string;
  inReplyToId?: string | null;
  recipientId?: string | null;
  idempotencyKey?: string | null;
  recordKey?: string | null;
  record?: Record<string, unknown> | null;
  media?: SandboxPostMedia[];
  /** When the platform shows it as made (default now; TikTok: when processing ends). */
  createdAt?: Date;
};

export type CreatePostResult =
  | { status: 'created' | 'replayed'; post: SandboxPost }
  /** Refused as a duplicate; `duplicateOf` names the existing copy where the platform says which (LinkedIn). */
  | { status: 'duplicate'; duplicateOf?: SandboxPost };

export type PostQuery = {
  kinds: SandboxPostKind[];
  startTime?: Date;
  endTime?: Date;
  maxId?: string;
  sinceId?: string;
  /** Read lag: only posts created at or before this instant. */
  createdUpTo?: Date;
  /** The control timeline lists deleted copies too (marked); the platform APIs never do. */
  includeDeleted?: boolean;
  /** Bluesky's listRecords: only posts with a record key, ordered by it (newest key first), below this key. */
  byRecordKey?: { before?: string };
  limit: number;
};

export type InboundQuery = {
  kinds: SandboxPostKind[];
  sinceId?: string;
  maxId?: string;
  startTime?: Date;
  createdUpTo?: Date;
  limit: number;
};

/** A Threads or Instagram media container (sandbox/dialects/graph/api.ts derives its status from these fields). */
export type SandboxContainer = {
  id: string;
  accountId: string;
  kind: 'post' | 'reply';
  mediaType: 'TEXT' | 'IMAGE' | 'CAROUSEL' | 'VIDEO' | 'REELS' | 'STORIES';
  text: string;
  imageUrl: string | null;
  /** Instagram: a Reel's, a Story's or a carousel item's video, fetched by URL like an image. */
  videoUrl: string | null;
  /** IMAGE: the image fetched from `imageUrl`; CAROUSEL: its items' images. The post it becomes shows them. */
  media: SandboxPostMedia[];
  inReplyToId: string | null;
  createdAt: Date;
  /** IN_PROGRESS until then (processing). */
  readyAt: Date;
  /** Processing failed: the container is in ERROR. */
  errorMessage: string | null;
  /** The post it became (the latest, where a server publishes a container again). */
  postId: string | null;
  publishedAt: Date | null;
};

export type NewSandboxContainer = Omit<SandboxContainer, 'id' | 'createdAt' | 'postId' | 'publishedAt'>;

export type PublishContainerInput = {
  account: SandboxAccount;
  containerId: string;
  /** The container expires this long after its creation. */
  ttlMs: number;
  /** false: a published container is refused; true: it is published again (a second post). */
  republish: boolean;
  /** At most `max` posts of the container's kind published on the account within `windowMs`. */
  quota: { max: number; windowMs: number };
};

export type PublishContainerResult =
  | { status: 'published'; post: SandboxPost; container: SandboxContainer }
  | {
      status: 'refused';
      reason: 'missing' | 'in_progress' | 'error' | 'expired' | 'published' | 'quota';
      container: SandboxContainer | null;
    };

/** A TikTok publish (sandbox/dialects/tiktok/publishes.ts derives its status from these fields). */
export type SandboxTiktokPublish = {
  id: string;
  accountId: string;
  mode: 'direct' | 'inbox';
  source: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  title: string;
  privacyLevel: string | null;
  videoUrl: string | null;
  videoSize: number | null;
  chunkSize: number | null;
  totalChunkCount: number | null;
  /** FILE_UPLOAD: bytes received so far, in order. */
  uploadedBytes: number;
  media: SandboxPostMedia[];
  createdAt: Date;
  /** Processing ends then; null while a FILE_UPLOAD still waits for bytes. */
  readyAt: Date | null;
  failReason: string | null;
  /** The post it became (stored when the video is whole, dated `readyAt`). */
  postId: string | null;
};

export type NewSandboxTiktokPublish = Pick<
  SandboxTiktokPublish,
  | 'accountId'
  | 'mode'
  | 'source'
  | 'title'
  | 'privacyLevel'
  | 'videoUrl'
  | 'videoSize'
  | 'chunkSize'
  | 'totalChunkCount'
>;

export type FinishTiktokPublishInput = {
  id: string;
  account: SandboxAccount;
  /** Processing ends then: the post is dated so (and listed from then on). */
  readyAt: Date;
  media: SandboxPostMedia[];
  /** FAILED with this reason instead of a post. */
  failReason: string | null;
  /** The post's text when it is given at the end (a Facebook video's description, sent with `finish`). */
  text?: string;
};

/** A YouTube resumable upload session (sandbox/dialects/youtube/uploads.ts derives its answers from these fields). */
export type SandboxYoutubeUpload = {
  id: string;
  accountId: string;
  title: string;
  description: string;
  tags: string[];
  privacyStatus: string;
  publishAt: Date | null;
  contentType: string;
  declaredBytes: number;
  /** Bytes received so far, in order. */
  uploadedBytes: number;
  media: SandboxPostMedia[];
  createdAt: Date;
  /** The video was made (every byte arrived and was processed into a video resource); null before. */
  completedAt: Date | null;
  /** Processing ends then (uploadStatus `uploaded` until, `processed` after). */
  readyAt: Date | null;
  /** The upload ended as a failed video (the bytes were no video). */
  failReason: string | null;
  /** The video it became. */
  postId: string | null;
  /** The custom thumbnail set on the video (thumbnails.set), by SHA-256. */
  thumbnailSha256: string | null;
};

export type NewSandboxYoutubeUpload = Pick<
  SandboxYoutubeUpload,
  'accountId' | 'title' | 'description' | 'tags' | 'privacyStatus' | 'publishAt' | 'contentType' | 'declaredBytes'
>;

export type DeleteResult =
  { status: 'deleted'; post: SandboxPost } | { status: 'already_deleted'; post: SandboxPost } | { status: 'not_found' };

/**
 * Storage primitives, each atomic on its own. The platform rules built from them (Idempotency-Key
 * handling, duplicate content, processing time) are written once, in profiles.ts, for both stores.
 */
export interface SandboxStore {
  authenticate(platform: Platform, token: string): Promise<SandboxAccount | null>;
  getAccount(platform: Platform, platformUserId: string): Promise<SandboxAccount | null>;
  getAccountById(id: string): Promise<SandboxAccount | null>;
  /** Bluesky's resolveHandle (handles compared without "@", case-insensitively). */
  getAccountByHandle(platform: Platform, handle: string): Promise<SandboxAccount | null>;
  /** The SHA-256 of the account's token: Bluesky sandbox sessions are signed with it (bluesky-session.ts). */
  getTokenHash(accountId: string): Promise<string | null>;
  registerAccount(input: {
    platform: Platform;
    platformUserId: string;
    handle: string;
    displayName?: string | null;
    token: string;
  }): Promise<SandboxAccount>;
  /**
   * Stores a new copy. With `refuseDuplicateSince`, atomically refuses (null) when a live post or reply
   * with identical text exists on the account since then (X's duplicate-content rule); with
   * `duplicatesIncludeDeleted`, a deleted one counts too (LinkedIn's refusal outlives the post). With `recordKey`,
   * atomically refuses (null) when a live post of the account holds that key (a repo path holds one record).
   */
  insertPost(
    input: NewSandboxPost & { refuseDuplicateSince?: Date; duplicatesIncludeDeleted?: boolean },
  ): Promise<SandboxPost | null>;
  /** The newest post or reply with identical text on the account since then (deleted ones too when asked). */
  findDuplicatePost(input: {
    accountId: string;
    text: string;
    since: Date;
    includeDeleted: boolean;
  }): Promise<SandboxPost | null>;
  /** Seeds a post directly, no platform rules (tests). */
  createPost(input: NewSandboxPost): Promise<CreatePostResult>;
  /** Redis GET of an Idempotency-Key: the post id it was set to, if set after `setSince`. */
  getIdempotentPostId(accountId: string, key: string, setSince: Date): Promise<string | null>;
  /** Redis SETEX: (re)sets the key to this post, from now. */
  setIdempotentPostId(accountId: string, key: string, postId: string): Promise<void>;
  /** Redis SET NX PX: takes a named lock that expires after `ttlMs`; its token, or null when held. */
  tryLock(name: string, ttlMs: number): Promise<string | null>;
  unlock(name: string, token: string): Promise<void>;
  /** A live post (deleted ones are not found). */
  getPost(id: string): Promise<SandboxPost | null>;
  /** Bluesky: the account's live post under this record key. */
  getPostByRecordKey(accountId: string, recordKey: string): Promise<SandboxPost | null>;
  /** Newest first. */
  listPosts(accountId: string, query: PostQuery): Promise<SandboxPost[]>;
  /** Every copy ever stored on the account, deleted ones included, oldest first (tests, chaos). */
  listAllPosts(accountId: string): Promise<SandboxPost[]>;
  /**
   * The live replies to one post, whoever made them (Instagram's comments on a media object), newest first: below
   * `maxId` when given, created at or before `createdUpTo` (read lag), at most `limit`.
   */
  listReplies(postId: string, query: { maxId?: string; createdUpTo?: Date; limit: number }): Promise<SandboxPost[]>;
  /**
   * Stores someone's post addressed to an account (a reply under its post, a mention of it, a DM to it:
   * sandbox/behaviour/inbound.ts) once per `inboundKey`, atomically: the stored post, whichever call stored it.
   */
  insertInbound(input: NewSandboxPost & { inboundKey: string; addressedTo: string }): Promise<SandboxPost>;
  /**
   * What others addressed to the account (its notifications, mentions and DMs), live posts newest first: ids after
   * `sinceId` and before `maxId`, created from `startTime` and at or before `createdUpTo` (read lag), at most `limit`.
   */
  listInbound(accountId: string, query: InboundQuery): Promise<SandboxPost[]>;
  /** Soft-deletes the account's own post (atomic: one of two concurrent deletes wins). */
  deletePost(accountId: string, id: string): Promise<DeleteResult>;
  /** Live (not deleted) copies per account. */
  countPosts(accountIds: string[]): Promise<Map<string, number>>;
  /** Stores an upload (not public until a post names it). */
  createMedia(input: Omit<SandboxMedia, 'id' | 'createdAt'>): Promise<SandboxMedia>;
  getMedia(id: string): Promise<SandboxMedia | null>;
  /** Alt text added later (X's metadata call), or a LinkedIn image's bytes arriving. */
  updateMedia(
    id: string,
    patch: Partial<Pick<SandboxMedia, 'altText' | 'type' | 'sha256' | 'size' | 'uploaded'>>,
  ): Promise<SandboxMedia | null>;
  /** Threads: stores a media container (not a post: nothing is public until it is published). */
  createContainer(input: NewSandboxContainer): Promise<SandboxContainer>;
  getContainer(id: string): Promise<SandboxContainer | null>;
  /**
   * Threads' threads_publish as one compare-and-set per account: the container must be the account's, ready,
   * not failed, not expired and (unless `republish`) not yet published, and the quota not spent; then the post
   * is stored and the container marked published, together.
   */
  publishContainer(input: PublishContainerInput): Promise<PublishContainerResult>;
  /** TikTok: stores a publish; every init makes one (TikTok has no idempotency at all). */
  createTiktokPublish(input: NewSandboxTiktokPublish): Promise<SandboxTiktokPublish>;
  getTiktokPublish(id: string): Promise<SandboxTiktokPublish | null>;
  /** TikTok's daily cap: the account's publishes in this mode made since then (failed ones too). */
  countTiktokPublishes(input: { accountId: string; mode: 'direct' | 'inbox'; since: Date }): Promise<number>;
  /**
   * TikTok: takes one chunk of a FILE_UPLOAD, a compare-and-set: only when it starts where the received bytes end and
   * the publish has not ended. The publish after it, or null when refused.
   */
  takeTiktokChunk(input: {
    id: string;
    first: number;
    length: number;
    /** The first chunk names what the video is (its type, read from its bytes). */
    media?: SandboxPostMedia[];
  }): Promise<SandboxTiktokPublish | null>;
  /**
   * TikTok: ends a publish once (null when it had ended already): FAILED with a reason, or complete, its post stored now
   * (dated `readyAt`) together with the publish's link to it.
   */
  finishTiktokPublish(input: FinishTiktokPublishInput): Promise<SandboxTiktokPublish | null>;
  /** YouTube: stores a resumable session; every videos.insert makes one (no idempotency). */
  createYoutubeUpload(input: NewSandboxYoutubeUpload): Promise<SandboxYoutubeUpload>;
  getYoutubeUpload(id: string): Promise<SandboxYoutubeUpload | null>;
  /** Every session of the account, oldest first (tests count them). */
  listYoutubeUploads(accountId: string): Promise<SandboxYoutubeUpload[]>;
  /**
   * YouTube: takes one chunk, a compare-and-set: it must start where the received bytes end, stay within the declared
   * size, while the session is not complete. The session after it, or null when refused.
   */
  takeYoutubeChunk(input: {
    id: string;
    first: number;
    length: number;
    media?: SandboxPostMedia[];
  }): Promise<SandboxYoutubeUpload | null>;
  /** YouTube: completes a session once (null when it had ended): its video stored now, or failed with a reason. */
  completeYoutubeUpload(input: {
    id: string;
    account: SandboxAccount;
    readyAt: Date;
    failReason: string | null;
  }): Promise<SandboxYoutubeUpload | null>;
  /** YouTube's thumbnails.set: the thumbnail of the account's video; false when no such video is the account's. */
  setYoutubeThumbnail(input: { accountId: string; videoId: string; sha256: string }): Promise<boolean>;
  /** YouTube's quota, atomically: spends `units` of the project's day unless that would pass `limit` (false). */
  spendYoutubeQuota(input: { project: string; day: string; units: number; limit: number }): Promise<boolean>;
  /** Units the project spent that day (the Sandbox page, tests). */
  youtubeQuotaUsed(input: { project: string; day: string }): Promise<number>;
  getFaults(accountId: string): Promise<FaultSettings>;
  setFaults(accountIds: string[], faults: FaultsUpdate): Promise<void>;
  /** The OAuth server's codes and tokens (sandbox/oauth/oauth.ts); `authenticate` accepts its live access tokens. */
  oauth: SandboxOAuthStore;
}

/** An authorization code as issued: bound to the client, the redirect URI and the PKCE challenge. */
export type SandboxOAuthCode = {
  accountId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  familyId: string;
  expiresAt: Date;
};

/** A token as issued; a family is one consent (refreshes rotate within it). */
export type SandboxOAuthToken = {
  tokenHash: string;
  kind: 'access' | 'refresh';
  accountId: string;
  clientId: string;
  familyId: string;
  scope: string;
  expiresAt: Date | null;
  usedAt: Date | null;
  revokedAt: Date | null;
};

/** Storage of the sandbox's OAuth server, by hashes only; each `use…` is atomic (one of two concurrent uses wins). */
export interface SandboxOAuthStore {
  saveCode(codeHash: string, code: SandboxOAuthCode): Promise<void>;
  /** The code when this call is its first use; `reused` when it was used before (null: never issued). */
  redeemCode(
    codeHash: string,
  ): Promise<{ status: 'first'; code: SandboxOAuthCode } | { status: 'reused'; code: SandboxOAuthCode } | null>;
  issueTokens(tokens: Omit<SandboxOAuthToken, 'usedAt' | 'revokedAt'>[]): Promise<void>;
  /** Spends a refresh token: `first` when this call spent it; otherwise how it stands (spent, revoked) or null. */
  spendRefreshToken(
    tokenHash: string,
  ): Promise<{ status: 'first' | 'spent' | 'revoked'; token: SandboxOAuthToken } | null>;
  revokeFamily(familyId: string): Promise<void>;
  /** Revokes every token of the account, its own bearer token included; how many OAuth tokens were live. */
  revokeAccount(accountId: string): Promise<number>;
}

/** An account as a control-endpoint caller knows it: `accountId` is the id they use (the product's account id). */
export type ScopedAccount = { accountId: string; handle: string; disconnected: boolean; account: SandboxAccount };

/** The sandbox accounts one caller may read (`read`) or change (`change`), or a problem response (401/403/429). */
export type ScopeResolver = (request: Request, access: 'read' | 'change') => Promise<ScopedAccount[] | Response>;

/** The platforms' webhooks as the sandbox sends them (sandbox/webhooks/sender.ts). */
export type SandboxWebhooks = {
  /** Sends one event (its body as JSON) no earlier than `notBefore`: once or twice, each after its own delay. */
  send(network: Platform, body: Record<string, unknown>, notBefore?: Date): void;
  /** Resolves when every copy sent so far has been delivered or given up (tests). */
  idle(): Promise<void>;
  /** Copies delivered with a 2xx, per network (tests). */
  delivered(network: Platform): number;
};

export type SandboxDeps = {
  store: SandboxStore;
  resolveScope: ScopeResolver;
  /**
   * Inside the app only: the sandbox accounts of the signed-in member's workspace (any role), so the
   * "View post" links the app shows open in a browser without a bearer token. Null when not signed in.
   */
  viewerScope?: (request: Request) => Promise<ScopedAccount[] | null>;
  /**
   * Who is "signed in to the platform" on the OAuth consent page: inside the app, the sandbox users of the
   * workspaces the signed-in member administers (offered besides a new user). Null (or absent): nobody who may
   * connect accounts is signed in, and the consent is refused.
   */
  consentScope?: (request: Request) => Promise<ScopedAccount[] | null>;
  /** How a dialect that takes images (Threads) or videos (TikTok) by URL fetches one (default: an HTTP GET). */
  fetchImage?: (url: string) => Promise<Uint8Array | null>;
  /** How long "timeout" faults hold a request that the client has not abandoned (default 120 s). */
  hangMs?: number;
  /** OAuth access tokens the sandbox issues live this long (default 7200 s, as X's); tests shorten it. */
  oauthTokenTtlSeconds?: number;
  /** mastodon-modern: how long a same-key request waits for the lock before its 503 (Mastodon: 10 s). */
  lockWaitMs?: number;
  random?: () => number;
  /** The platforms' webhooks to the app (TikTok's publish events), sent at least once and out of order; none: off. */
  webhooks?: SandboxWebhooks;
};
