import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSchema,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { providerEnum } from '../../db/schema';
import { PROFILES } from '../store/types';

/**
 * The built-in sandbox social network (docs/architecture.md#sandbox). It is a separate "platform": its own Postgres schema,
 * its own users and tokens, never joined into the product's tables except to find a workspace's accounts.
 */
export const sandbox = pgSchema('sandbox');

// Every network has a dialect: the product's provider list, as the sandbox's own type (`sandbox.platform`).
export const sandboxPlatformEnum = sandbox.enum('platform', providerEnum.enumValues);
export const sandboxPostKindEnum = sandbox.enum('post_kind', ['post', 'reply', 'dm']);

const createdAt = () => timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow();

/** A user of the fake platform and the SHA-256 of its bearer token (the token itself is never stored here). */
export const sandboxAccounts = sandbox.table(
  'accounts',
  {
    id: uuid().primaryKey().defaultRandom(),
    platform: sandboxPlatformEnum().notNull(),
    platformUserId: text().notNull(),
    handle: text().notNull(),
    displayName: text(),
    tokenHash: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('sandbox_accounts_platform_user_uq').on(t.platform, t.platformUserId),
    unique('sandbox_accounts_token_uq').on(t.tokenHash),
  ],
);
export type SandboxAccountRow = typeof sandboxAccounts.$inferSelect;

/**
 * Everything ever published on the sandbox: tweets, statuses, DMs and Bluesky records. Copies are counted here.
 * Ids are snowflake-like (sandbox/store/post-ids.ts): time-ordered, not guessable. Deletes are soft.
 */
export const sandboxPosts = sandbox.table(
  'posts',
  {
    id: bigint({ mode: 'bigint' }).primaryKey(),
    accountId: uuid()
      .notNull()
      .references(() => sandboxAccounts.id, { onDelete: 'cascade' }),
    kind: sandboxPostKindEnum().notNull(),
    text: text().notNull(),
    inReplyToId: text(),
    recipientId: text(),
    idempotencyKey: text(),
    /** Bluesky: the record key and the record as written (getRecord answers with it). */
    recordKey: text(),
    record: jsonb().$type<Record<string, unknown>>(),
    /** The images the post shows, as the platform received them (sandbox/http/media.ts). */
    media: jsonb().$type<{ type: string; altText: string; sha256: string }[]>().notNull().default([]),
    createdAt: createdAt(),
    deletedAt: timestamp({ withTimezone: true, precision: 3 }),
    /**
     * Someone else's post addressed to an account (sandbox/behaviour/inbound.ts): a reply under its post, a mention of
     * it, a DM to it. What its notifications, mentions and DM listings show; null for every other post.
     */
    addressedTo: uuid().references((): AnyPgColumn => sandboxAccounts.id, { onDelete: 'cascade' }),
    /** The generator's key of an inbound post: each is stored once, however many reads ask for it at once. */
    inboundKey: text(),
  },
  (t) => [
    index('sandbox_posts_account_created_idx').on(t.accountId, t.createdAt),
    // A repo path holds one record: one live post per (account, record key). Deleting frees the key, as on a PDS.
    uniqueIndex('sandbox_posts_account_record_key_uq')
      .on(t.accountId, t.recordKey)
      .where(sql`${t.recordKey} is not null and ${t.deletedAt} is null`),
    // X's duplicate-content rule looks up identical text on one account.
    index('sandbox_posts_account_text_idx').on(t.accountId, sql`md5(${t.text})`),
    // Notifications, mentions and DM listings: what was addressed to one account, newest first.
    index('sandbox_posts_addressed_idx')
      .on(t.addressedTo, t.id)
      .where(sql`${t.addressedTo} is not null`),
    // A post's comments and replies (Instagram, Facebook, LinkedIn, YouTube, Threads read them per post).
    index('sandbox_posts_in_reply_to_idx')
      .on(t.inReplyToId)
      .where(sql`${t.inReplyToId} is not null`),
    uniqueIndex('sandbox_posts_inbound_key_uq')
      .on(t.inboundKey)
      .where(sql`${t.inboundKey} is not null`),
  ],
);
export type SandboxPostRow = typeof sandboxPosts.$inferSelect;

/**
 * Mastodon's Idempotency-Key as Redis holds it (`SETEX key 3600 status_id`, written after the status is
 * created): one row per (account, key), overwritten on set. Whether a resend is absorbed depends on the
 * profile (sandbox/behaviour/profiles.ts), not on this table.
 */
export const sandboxIdempotencyKeys = sandbox.table(
  'idempotency_keys',
  {
    accountId: uuid()
      .notNull()
      .references(() => sandboxAccounts.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    postId: bigint({ mode: 'bigint' }).references(() => sandboxPosts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [unique('sandbox_idempotency_keys_account_key_uq').on(t.accountId, t.key)],
);

/** Redis `SET NX PX` as a row: a named lock with an expiry (Mastodon's `with_redis_lock`). */
export const sandboxLocks = sandbox.table('locks', {
  name: text().primaryKey(),
  token: text().notNull(),
  expiresAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
});

/** Platform profile and fault injection per account; rates are probabilities per request. */
export const sandboxFaults = sandbox.table(
  'faults',
  {
    accountId: uuid()
      .primaryKey()
      .references(() => sandboxAccounts.id, { onDelete: 'cascade' }),
    profile: text({ enum: PROFILES }).notNull(),
    latencyMs: integer().notNull().default(0),
    timeoutBeforeCommit: doublePrecision().notNull().default(0),
    timeoutAfterCommit: doublePrecision().notNull().default(0),
    errorAfterCommit: doublePrecision().notNull().default(0),
    resetAfterCommit: doublePrecision().notNull().default(0),
    rateLimited: doublePrecision().notNull().default(0),
    processingMs: integer().notNull().default(0),
    processingShare: doublePrecision().notNull().default(1),
    readLagMs: integer().notNull().default(0),
    listingUnavailable: doublePrecision().notNull().default(0),
    /** How many replies, mentions and DMs people send the account per day (sandbox/behaviour/inbound.ts); 0: none. */
    inboundPerDay: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('sandbox_faults_latency_ck', sql`${t.latencyMs} between 0 and 60000`),
    // Built from the one list of profiles: a new profile changes this check, so `drizzle-kit generate` migrates it.
    check('sandbox_faults_profile_ck', sql`${t.profile} in (${sql.raw(PROFILES.map((p) => `'${p}'`).join(', '))})`),
    check(
      'sandbox_faults_durations_ck',
      sql`${t.processingMs} between 0 and 120000 and ${t.readLagMs} between 0 and 300000`,
    ),
    check('sandbox_faults_inbound_ck', sql`${t.inboundPerDay} between 0 and 500`),
    check(
      'sandbox_faults_rates_ck',
      sql`least(${t.timeoutBeforeCommit}, ${t.timeoutAfterCommit}, ${t.errorAfterCommit}, ${t.resetAfterCommit}, ${t.rateLimited}, ${t.processingShare}, ${t.listingUnavailable}) >= 0
    and greatest(${t.timeoutBeforeCommit}, ${t.timeoutAfterCommit}, ${t.errorAfterCommit}, ${t.resetAfterCommit}, ${t.rateLimited}, ${t.processingShare}, ${t.listingUnavailable}) <= 1`,
    ),
  ],
);
export type SandboxFaultsRow = typeof sandboxFaults.$inferSelect;

/**
 * Uploaded media of every dialect (X media/upload, Mastodon /api/v2/media, Bluesky blobs, LinkedIn images):
 * not public until a post names them. `ready_at` models a server still processing (Mastodon's 202).
 */
export const sandboxMedia = sandbox.table(
  'media',
  {
    id: bigint({ mode: 'bigint' }).primaryKey(),
    accountId: uuid()
      .notNull()
      .references(() => sandboxAccounts.id, { onDelete: 'cascade' }),
    type: text().notNull(),
    altText: text().notNull().default(''),
    sha256: text().notNull(),
    size: integer().notNull(),
    readyAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    /** LinkedIn: an image is registered first (initializeUpload) and its bytes PUT afterwards. */
    uploaded: boolean().notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index('sandbox_media_account_idx').on(t.accountId, t.createdAt)],
);
export type SandboxMediaRow = typeof sandboxMedia.$inferSelect;

/**
 * Meta media containers, Threads' and Instagram's (sandbox/dialects/graph/api.ts): `POST /{user}/threads` makes one, `threads_publish`
 * turns it into a post. The status follows from the row: IN_PROGRESS until `ready_at`, ERROR with an
 * `error_message`, EXPIRED 24 h after creation, PUBLISHED once `post_id` is set (a compare-and-set in the store).
 */
export const sandboxThreadsContainers = sandbox.table(
  'threads_containers',
  {
    id: bigint({ mode: 'bigint' }).primaryKey(),
    accountId: uuid()
      .notNull()
      .references(() => sandboxAccounts.id, { onDelete: 'cascade' }),
    kind: sandboxPostKindEnum().notNull(),
    mediaType: text({ enum: ['TEXT', 'IMAGE', 'CAROUSEL', 'VIDEO', 'REELS', 'STORIES'] }).notNull(),
    text: text().notNull(),
    imageUrl: text(),
    /** Instagram: a Reel's, a Story's or a carousel item's video, fetched by the platform like an image. */
    videoUrl: text(),
    /** IMAGE: the image fetched from `image_url` (type, alt text, SHA-256), shown on the post it becomes. */
    media: jsonb().$type<{ type: string; altText: string; sha256: string }[]>().notNull().default([]),
    inReplyToId: text(),
    createdAt: createdAt(),
    readyAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    errorMessage: text(),
    postId: bigint({ mode: 'bigint' }).references(() => sandboxPosts.id, { onDelete: 'set null' }),
    publishedAt: timestamp({ withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('sandbox_threads_containers_account_idx').on(t.accountId, t.createdAt),
    check('sandbox_threads_containers_kind_ck', sql`${t.kind} in ('post', 'reply')`),
    check(
      'sandbox_threads_containers_media_type_ck',
      sql`${t.mediaType} in ('TEXT', 'IMAGE', 'CAROUSEL', 'VIDEO', 'REELS', 'STORIES')`,
    ),
  ],
);
export type SandboxThreadsContainerRow = typeof sandboxThreadsContainers.$inferSelect;

/**
 * TikTok publish records (sandbox/dialects/tiktok/api.ts): every `video/init` (direct post or inbox) makes one, with no
 * idempotency at all. The status follows from the row: PROCESSING_UPLOAD until every byte of a FILE_UPLOAD arrived,
 * PROCESSING_DOWNLOAD / PROCESSING_UPLOAD until `ready_at`, then PUBLISH_COMPLETE (or SEND_TO_USER_INBOX), FAILED with
 * a `fail_reason`. The post (`post_id`) is stored when the video is complete, dated `ready_at` (listed from then on).
 */
export const sandboxTiktokPublishes = sandbox.table(
  'tiktok_publishes',
  {
    id: text().primaryKey(),
    accountId: uuid()
      .notNull()
      .references(() => sandboxAccounts.id, { onDelete: 'cascade' }),
    mode: text({ enum: ['direct', 'inbox'] }).notNull(),
    source: text({ enum: ['FILE_UPLOAD', 'PULL_FROM_URL'] }).notNull(),
    title: text().notNull(),
    privacyLevel: text(),
    videoUrl: text(),
    videoSize: bigint({ mode: 'number' }),
    chunkSize: bigint({ mode: 'number' }),
    totalChunkCount: integer(),
    /** FILE_UPLOAD: the bytes received so far (chunks arrive in order; a chunk is taken whole or not at all). */
    uploadedBytes: bigint({ mode: 'number' }).notNull().default(0),
    /** The video as received (type, SHA-256), shown on the post it becomes. */
    media: jsonb().$type<{ type: string; altText: string; sha256: string }[]>().notNull().default([]),
    createdAt: createdAt(),
    /** Processing ends then (null while a FILE_UPLOAD still waits for bytes). */
    readyAt: timestamp({ withTimezone: true, precision: 3 }),
    failReason: text(),
    postId: bigint({ mode: 'bigint' }).references(() => sandboxPosts.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('sandbox_tiktok_publishes_account_idx').on(t.accountId, t.createdAt),
    check('sandbox_tiktok_publishes_mode_ck', sql`${t.mode} in ('direct', 'inbox')`),
    check('sandbox_tiktok_publishes_source_ck', sql`${t.source} in ('FILE_UPLOAD', 'PULL_FROM_URL')`),
  ],
);
export type SandboxTiktokPublishRow = typeof sandboxTiktokPublishes.$inferSelect;

/**
 * YouTube resumable upload sessions (sandbox/dialects/youtube/api.ts): every `videos.insert` with
 * `uploadType=resumable` starts one, whatever came before (YouTube has no idempotency). Bytes arrive in order; the
 * session becomes a video (`post_id`) only when the last declared byte arrived, never twice. `ready_at`: processing
 * ends (uploadStatus `uploaded` until then, `processed` after); `fail_reason`: the bytes were no MP4/MOV video.
 */
export const sandboxYoutubeUploads = sandbox.table(
  'youtube_uploads',
  {
    id: text().primaryKey(),
    accountId: uuid()
      .notNull()
      .references(() => sandboxAccounts.id, { onDelete: 'cascade' }),
    /** The video resource's snippet and status as the session start sent them. */
    title: text().notNull(),
    description: text().notNull(),
    tags: jsonb().$type<string[]>().notNull().default([]),
    privacyStatus: text().notNull(),
    publishAt: timestamp({ withTimezone: true, precision: 3 }),
    contentType: text().notNull(),
    /** X-Upload-Content-Length: the whole file's size, declared at the start. */
    declaredBytes: bigint({ mode: 'number' }).notNull(),
    uploadedBytes: bigint({ mode: 'number' }).notNull().default(0),
    /** What the first bytes say the file is (type, SHA-256 of the first chunk). */
    media: jsonb().$type<{ type: string; altText: string; sha256: string }[]>().notNull().default([]),
    createdAt: createdAt(),
    completedAt: timestamp({ withTimezone: true, precision: 3 }),
    readyAt: timestamp({ withTimezone: true, precision: 3 }),
    failReason: text(),
    postId: bigint({ mode: 'bigint' }).references(() => sandboxPosts.id, { onDelete: 'set null' }),
    /** thumbnails.set: the SHA-256 of the custom thumbnail (JPEG or PNG) set on the video. */
    thumbnailSha256: text(),
  },
  (t) => [index('sandbox_youtube_uploads_account_idx').on(t.accountId, t.createdAt)],
);
export type SandboxYoutubeUploadRow = typeof sandboxYoutubeUploads.$inferSelect;

/** YouTube Data API quota: units spent per project and Pacific day (10,000 a day; videos.insert costs 1,600). */
export const sandboxYoutubeQuota = sandbox.table(
  'youtube_quota',
  {
    project: text().notNull(),
    day: text().notNull(),
    units: integer().notNull().default(0),
  },
  (t) => [uniqueIndex('sandbox_youtube_quota_project_day_uq').on(t.project, t.day)],
);

/**
 * Authorization codes of the sandbox's OAuth server (sandbox/oauth/oauth.ts): single use, short-lived, bound to
 * the client, the redirect URI and the PKCE challenge they were issued for. Only hashes are stored.
 */
export const sandboxOAuthCodes = sandbox.table('oauth_codes', {
  codeHash: text().primaryKey(),
  accountId: uuid()
    .notNull()
    .references(() => sandboxAccounts.id, { onDelete: 'cascade' }),
  clientId: text().notNull(),
  redirectUri: text().notNull(),
  codeChallenge: text().notNull(),
  scope: text().notNull(),
  /** The tokens issued for this code: a second use of the code revokes them (RFC 6749 §4.1.2). */
  familyId: uuid().notNull(),
  expiresAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  usedAt: timestamp({ withTimezone: true, precision: 3 }),
});

/**
 * Access and refresh tokens the sandbox issued. A family is one consent: refreshes rotate within it, and a
 * refresh token used twice revokes the whole family (as OAuth 2.1 servers do on replay).
 */
export const sandboxOAuthTokens = sandbox.table(
  'oauth_tokens',
  {
    tokenHash: text().primaryKey(),
    kind: text({ enum: ['access', 'refresh'] }).notNull(),
    accountId: uuid()
      .notNull()
      .references(() => sandboxAccounts.id, { onDelete: 'cascade' }),
    clientId: text().notNull(),
    familyId: uuid().notNull(),
    scope: text().notNull(),
    expiresAt: timestamp({ withTimezone: true, precision: 3 }),
    /** A refresh token is spent by its one rotation. */
    usedAt: timestamp({ withTimezone: true, precision: 3 }),
    revokedAt: timestamp({ withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [
    check('sandbox_oauth_tokens_kind_ck', sql`${t.kind} in ('access', 'refresh')`),
    index('sandbox_oauth_tokens_account_idx').on(t.accountId),
    index('sandbox_oauth_tokens_family_idx').on(t.familyId),
  ],
);
export type SandboxOAuthTokenRow = typeof sandboxOAuthTokens.$inferSelect;
