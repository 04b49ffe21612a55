import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { INBOX_ITEM_KINDS, type InboxItemKind } from './inbox-kinds';
import { MAX_MEDIA_PER_POST } from './media-limits';
import { MAX_THREAD_PARTS } from './thread-limits';

// Columns are camelCase here and snake_case in Postgres (casing: 'snake_case' in the client and drizzle-kit).
const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

export const roleEnum = pgEnum('role', ['admin', 'manager', 'viewer']);
export const providerEnum = pgEnum('provider', [
  'x',
  'mastodon',
  'bluesky',
  'linkedin',
  'threads',
  'instagram',
  'tiktok',
  'facebook',
  'youtube',
]);
/** Derived from the enum: a new network there makes the compiler list every place to handle it. */
export type ProviderName = (typeof providerEnum.enumValues)[number];
/** What a provider keeps between attempts of one delivery (deliveries.provider_state; Threads: its container id). */
export type ProviderState = Record<string, string | number | boolean | null>;
export const postKindEnum = pgEnum('post_kind', ['post', 'reply', 'dm', 'thread']);
export const postSourceEnum = pgEnum('post_source', ['form', 'api']);
export const deliveryStatusEnum = pgEnum('delivery_status', [
  'scheduled',
  'publishing',
  'sent',
  'failed',
  'ambiguous',
  'needs_review',
  'canceled',
  'missed',
  // Saved without scheduling: never claimed (the claim takes `scheduled` only) until a keyed edit schedules it.
  'draft',
  // Waits for an approval decision (workspaces.approval_required): never claimed until approved → scheduled.
  'awaiting_approval',
]);
export const attemptOutcomeEnum = pgEnum('attempt_outcome', ['sent', 'failed', 'not_sent', 'ambiguous']);
export const idempotencyStateEnum = pgEnum('idempotency_state', ['in_flight', 'completed']);
export const reconcileDecisionEnum = pgEnum('reconcile_decision', [
  'found',
  'not_found_recheck',
  'released',
  'needs_review',
  'unreadable',
  'waiting',
  // The late-copy watch after a republish (lib/reconcile/watch.ts): one copy still, or a late copy appeared.
  'watch_clear',
  'late_copy',
]);

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid().primaryKey().defaultRandom(),
    slug: text().notNull(),
    name: text().notNull(),
    latenessLimitSeconds: integer().notNull().default(3600),
    /** The workspace's own IANA zone (shown beside the viewer's on the calendar); validated in lib/time/zoned.ts. */
    timeZone: text().notNull().default('UTC'),
    /** Images must carry alt text (Settings → General); on by default, as screen-reader users need it. */
    requireAltText: boolean().notNull().default(true),
    /** "Posts need approval" (Settings → General): new and edited posts wait in `awaiting_approval`. */
    approvalRequired: boolean().notNull().default(false),
    /** Deleted by an admin: hidden from every member at once; the purge-workspaces job removes its data. */
    deletedAt: timestamp({ withTimezone: true }),
    /** Members must sign in with a second factor (Settings → Security, admins): those without one enrol first. */
    requireTwoFactor: boolean().notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    unique('workspaces_slug_uq').on(t.slug),
    // The smallest lateness limit of any workspace, read by every claim and mark-missed: one index probe.
    index('workspaces_lateness_limit_idx').on(t.latenessLimitSeconds),
  ],
);
export type Workspace = typeof workspaces.$inferSelect;
export type NewWorkspace = typeof workspaces.$inferInsert;

export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    name: text().notNull(),
    passwordHash: text(),
    /** Carried in the session JWT and compared on every request: bumping it signs out every session. */
    sessionVersion: integer().notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [unique('users_email_uq').on(t.email), check('users_email_lowercase_ck', sql`${t.email} = lower(${t.email})`)],
);
export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

export const memberships = pgTable(
  'memberships',
  {
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: roleEnum().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'memberships_pk', columns: [t.workspaceId, t.userId] }),
    index('memberships_user_idx').on(t.userId),
  ],
);
export type Membership = typeof memberships.$inferSelect;

/**
 * An invitation to join a workspace (Settings → Members). The link's token is derived from the server key and
 * `tokenVersion` (lib/teams/invitation-token.ts) and only its hash is stored; a resend bumps the version, so the
 * old link stops working. Accepting is single use (`acceptedAt` set under the row lock); the membership's
 * primary key makes a second accept one membership.
 */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    role: roleEnum().notNull(),
    tokenHash: text().notNull(),
    tokenVersion: integer().notNull().default(1),
    invitedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
    acceptedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('workspace_invitations_token_hash_uq').on(t.tokenHash),
    check('workspace_invitations_email_lowercase_ck', sql`${t.email} = lower(${t.email})`),
    // One open invitation per address and workspace: inviting again is a resend, not a second link.
    uniqueIndex('workspace_invitations_open_uq')
      .on(t.workspaceId, t.email)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
  ],
);
export type WorkspaceInvitation = typeof workspaceInvitations.$inferSelect;

/** Sign-in attempts, for throttling by email + IP (a row, so it holds across app instances). */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    email: text().notNull(),
    ip: text().notNull(),
    /** The address's network: its IPv6 /64 (one subscriber's addresses), or the IPv4 address itself. */
    network: text().notNull(),
    /** False until the password is verified: an attempt counts as a failure from the moment it is taken. */
    succeeded: boolean().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_attempts_lookup_idx').on(t.email, t.ip, t.createdAt),
    index('login_attempts_network_idx').on(t.network, t.createdAt),
  ],
);

/** One row per sign-in: the JWT carries its id, every request checks it, sign-out deletes it. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Absolute end (SESSION_MAX_DAYS after sign-in), however active the session is. */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** The user's session version at sign-in: a bump (sign out everywhere, password reset) ends this row too. */
    sessionVersion: integer().notNull(),
    userAgent: text(),
    address: text().notNull(),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId, t.lastSeenAt),
    index('sessions_expires_idx').on(t.expiresAt),
    check('sessions_expiry_ck', sql`${t.expiresAt} > ${t.createdAt}`),
  ],
);
export type UserSession = typeof sessions.$inferSelect;

/** A user's TOTP secret, sealed with APP_ENCRYPTION_KEY (the user id as associated data); on once `enabledAt` is set. */
export const totpFactors = pgTable('totp_factors', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text().notNull(),
  /** Null while enrolling: the secret is shown, but sign-in does not ask for it until a code confirmed it. */
  enabledAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
});

/** Each TOTP step a user has signed in with: the primary key refuses a replayed code, even two at once. */
export const totpUsedSteps = pgTable(
  'totp_used_steps',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    step: bigint({ mode: 'number' }).notNull(),
    usedAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'totp_used_steps_pk', columns: [t.userId, t.step] })],
);

/** Ten one-time recovery codes per user, only their hashes; `usedAt` set by the one statement that spends one. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [unique('recovery_codes_user_hash_uq').on(t.userId, t.codeHash)],
);

/** A pending change of a user's email: the link sent to the new address (hash only) changes it, once, within 24 h. */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text().notNull(),
    secretHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('email_changes_user_idx').on(t.userId),
    check('email_changes_email_lowercase_ck', sql`${t.newEmail} = lower(${t.newEmail})`),
  ],
);

export const socialAccounts = pgTable(
  'social_accounts',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    provider: providerEnum().notNull(),
    sandbox: boolean().notNull().default(false),
    handle: text().notNull(),
    displayName: text(),
    /** The account's page as the platform names it (Mastodon's `url`), never derived from the URL typed. */
    profileUrl: text(),
    platformUserId: text().notNull(),
    baseUrl: text().notNull(),
    /** AES-256-GCM sealed JSON ({ accessToken, ... }); never selected for the browser. */
    credentialsEncrypted: text().notNull(),
    tokenLast4: text().notNull(),
    disconnectedAt: timestamp({ withTimezone: true }),
    /** Token health: `ok`, or why the account needs a reconnect (its due deliveries are held meanwhile). */
    tokenStatus: text({ enum: ['ok', 'expired', 'rejected'] })
      .notNull()
      .default('ok'),
    tokenProblem: text(),
    /** When the sealed access token expires (OAuth, Bluesky sessions); the token job refreshes before then. */
    tokenExpiresAt: timestamp({ withTimezone: true }),
    /** The refresh claim: one refresher per account at a time (no two refreshes racing). */
    tokenRefreshLeaseUntil: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('social_accounts_token_status_ck', sql`${t.tokenStatus} in ('ok', 'expired', 'rejected')`),
    unique('social_accounts_workspace_platform_uq').on(t.workspaceId, t.provider, t.baseUrl, t.platformUserId),
    index('social_accounts_workspace_idx').on(t.workspaceId),
  ],
);
export type SocialAccount = typeof socialAccounts.$inferSelect;
export type NewSocialAccount = typeof socialAccounts.$inferInsert;

export const posts = pgTable(
  'posts',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: postKindEnum().notNull().default('post'),
    text: text().notNull(),
    /**
     * The post's first comment (kind `post` only): published as its reply part (deliveries.part 1) on each account
     * whose network takes one, only once part 0 is `sent` (docs/architecture.md#first-comments). Null: none.
     */
    firstComment: text(),
    /**
     * The post's link tracking (docs/content.md#short-links-and-utm): `{ track?, presetId?, campaign? }`; null: the
     * workspace's defaults (Settings → Links). Applied to its text per network when it is saved (post_link_texts).
     */
    links: jsonb().$type<PostLinkOptions>(),
    inReplyTo: text(),
    recipient: text(),
    scheduledAt: timestamp({ withTimezone: true }).notNull(),
    source: postSourceEnum().notNull(),
    idempotencyKey: text(),
    createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdByApiKeyId: uuid(),
    /** Bumped by every edit: an approval decision is about one revision (approval_decisions_post_revision_uq). */
    revision: integer().notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // I3: one intent, one row, even if the idempotency-key table were bypassed.
    unique('posts_workspace_idempotency_key_uq').on(t.workspaceId, t.idempotencyKey),
    index('posts_workspace_created_idx').on(t.workspaceId, t.createdAt),
    // The calendar's range read (and GET /api/v1/posts?from=&to=): one index range scan in (time, id) order.
    index('posts_workspace_scheduled_idx').on(t.workspaceId, t.scheduledAt, t.id),
  ],
);
export type Post = typeof posts.$inferSelect;
export type NewPost = typeof posts.$inferInsert;

/**
 * A thread's parts, in order (kind `thread` only). Position 0's text is also `posts.text`. Each part has its
 * own delivery per account (`deliveries.part`), published only once the part before it is `sent`.
 */
export const postParts = pgTable(
  'post_parts',
  {
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    text: text().notNull(),
    // A part's images are in post_media under its position (`post_media.part`).
  },
  (t) => [
    primaryKey({ name: 'post_parts_pk', columns: [t.postId, t.position] }),
    check('post_parts_position_ck', sql`${t.position} >= 0 and ${t.position} < ${sql.raw(String(MAX_THREAD_PARTS))}`),
  ],
);
export type PostPart = typeof postParts.$inferSelect;

/**
 * One CSV import (docs/publishing.md#import): the file it came from, for "row N of file.csv imported on …". Its posts
 * are keyed `import:<sha256(row key)>` in `posts.idempotency_key`, so `posts_workspace_idempotency_key_uq` is what
 * makes each row take effect once, even when two imports of one file race (lib/imports/).
 */
export const imports = pgTable(
  'imports',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    fileName: text().notNull(),
    source: postSourceEnum().notNull(),
    createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdByApiKeyId: uuid(),
    createdAt: createdAt(),
  },
  (t) => [index('imports_workspace_created_idx').on(t.workspaceId, t.createdAt)],
);
export type Import = typeof imports.$inferSelect;

/**
 * The row a post was imported from (one per post: a thread is the row of its first part). `matchKey` is
 * sha256(accounts + scheduled time): a later row with a new key, the same match key and a similar text "looks
 * like an edited copy" of this one.
 */
export const importRows = pgTable(
  'import_rows',
  {
    postId: uuid()
      .primaryKey()
      .references(() => posts.id, { onDelete: 'cascade' }),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    importId: uuid()
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    rowNumber: integer().notNull(),
    matchKey: text().notNull(),
    /** The row's text (a thread's parts joined by a blank line), normalised: what the similarity compares. */
    normalisedText: text().notNull(),
  },
  (t) => [index('import_rows_workspace_match_idx').on(t.workspaceId, t.matchKey)],
);
export type ImportRow = typeof importRows.$inferSelect;
export type NewImportRow = typeof importRows.$inferInsert;

export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: uuid()
      .notNull()
      .references(() => socialAccounts.id, { onDelete: 'restrict' }),
    /** The thread part this delivery publishes (0 for every other kind); part k waits for part k-1 to be sent. */
    part: integer().notNull().default(0),
    status: deliveryStatusEnum().notNull().default('scheduled'),
    /** When the delivery may next be claimed: the scheduled time, or later after a not_sent backoff. */
    dueAt: timestamp({ withTimezone: true }).notNull(),
    attemptCount: integer().notNull().default(0),
    externalId: text(),
    externalUrl: text(),
    failureReason: text(),
    /** What the provider keeps across attempts (Threads: the container id); written fenced by the claim. */
    providerState: jsonb().$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    /**
     * How this account publishes the post where its network has several ways (Instagram `story`; PROVIDER_META
     * `formats`); null: the network's default for what is attached (a post, a carousel, a Reel for one video).
     */
    format: text(),
    /**
     * The choices this account's network asks for per post (ProviderMeta `options`, checked by its schema when the
     * post is made: TikTok's `privacy_level`…); null: none. Small JSON, never secrets.
     */
    options: jsonb().$type<Record<string, unknown>>(),
    settledAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One delivery per post, account and thread part: a part is published at most once per account (I1).
    unique('deliveries_post_account_part_uq').on(t.postId, t.accountId, t.part),
    check('deliveries_format_ck', sql`${t.format} ~ '^[a-z][a-z_]{0,19}$'`),
    // A handful of choices, not a document: a bug that stored a whole request here is refused, not kept.
    check(
      'deliveries_options_ck',
      sql`${t.options} is null or (jsonb_typeof(${t.options}) = 'object' and octet_length(${t.options}::text) <= 2048)`,
    ),
    check('deliveries_part_ck', sql`${t.part} >= 0 and ${t.part} < ${sql.raw(String(MAX_THREAD_PARTS))}`),
    index('deliveries_due_idx')
      .on(t.dueAt)
      .where(sql`${t.status} = 'scheduled'`),
    // For ambiguous deliveries due_at is the next reconciliation check.
    index('deliveries_ambiguous_due_idx')
      .on(t.dueAt)
      .where(sql`${t.status} = 'ambiguous'`),
    // The lease sweep's deliveries in flight: a handful at any time, however many the table holds (without it the
    // sweep read all of deliveries_workspace_status_idx on every pass, npm run bench:growth).
    index('deliveries_publishing_idx')
      .on(t.id)
      .where(sql`${t.status} = 'publishing'`),
    index('deliveries_workspace_status_idx').on(t.workspaceId, t.status),
    index('deliveries_account_idx').on(t.accountId),
    // A claim shared out between workspaces (more due than it takes) finds each workspace with one probe and reads
    // its share earliest first; only scheduled rows, so publishing's own updates never touch it.
    index('deliveries_scheduled_workspace_idx')
      .on(t.workspaceId, t.dueAt, t.id)
      .where(sql`${t.status} = 'scheduled'`),
    // Mark-missed reads the retried ones (a due time later than their post's) apart from the fresh ones.
    index('deliveries_retry_due_idx')
      .on(t.dueAt)
      .where(sql`${t.status} = 'scheduled' and ${t.attemptCount} > 0`),
    // The metrics job's find (addDueMetricReads, every minute): the deliveries sent within its horizon, not every
    // sent delivery ever (npm run bench:growth).
    index('deliveries_sent_settled_idx')
      .on(t.settledAt)
      .where(sql`${t.status} = 'sent'`),
  ],
);
export type Delivery = typeof deliveries.$inferSelect;

/**
 * An uploaded image or video (lib/media): checked by content (images stripped of metadata, videos probed), its bytes
 * stored content-addressed (lib/media/storage.ts), so the same bytes uploaded twice are stored once. The video
 * columns are null for images.
 */
export const media = pgTable(
  'media',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the stored bytes (an image's stripped ones): their address in the media storage. */
    sha256: text().notNull(),
    /** MIME type decided from the content (image/jpeg, image/png, image/gif, image/webp, video/mp4, video/quicktime). */
    type: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    /** Bytes; a video may be larger than 2 GiB's integer range allows. */
    size: bigint({ mode: 'number' }).notNull(),
    altText: text().notNull().default(''),
    /** Who uploaded it: `user:<id>` or `api_key:<id>`. */
    createdBy: text().notNull(),
    createdAt: createdAt(),
    durationMs: integer(),
    videoCodec: text(),
    audioCodec: text(),
    frameRate: doublePrecision(),
    rotation: integer(),
    container: text(),
    /** The cover frame (a JPEG) in the same storage, by its SHA-256. */
    coverSha256: text(),
  },
  (t) => [
    index('media_workspace_idx').on(t.workspaceId, t.createdAt),
    // lib/media/sniff.ts's IMAGE_TYPES and VIDEO_TYPES.
    check(
      'media_type_ck',
      sql`${t.type} in ('image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/quicktime')`,
    ),
    check('media_sha256_ck', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
    // A video row always carries its probe and its cover; an image none of them.
    check(
      'media_video_facts_ck',
      sql`(${t.type} like 'video/%') = (${t.durationMs} is not null and ${t.videoCodec} is not null and ${t.frameRate} is not null and ${t.rotation} is not null and ${t.container} is not null and ${t.coverSha256} is not null)`,
    ),
    check('media_cover_sha256_ck', sql`${t.coverSha256} is null or ${t.coverSha256} ~ '^[0-9a-f]{64}$'`),
  ],
);
export type Media = typeof media.$inferSelect;

export const MEDIA_UPLOAD_STATUSES = ['uploading', 'finished', 'failed'] as const;

/**
 * A resumable (tus) video upload (lib/media/video-upload.ts): its bytes grow in the tus store until `length`, then one
 * finish stores them and makes the media row. `media_uploads_media_uq` and the row lock taken at the finish make a
 * finish retried or run twice at once name one media row.
 */
export const mediaUploads = pgTable(
  'media_uploads',
  {
    /** The tus upload id (its URL's last segment). */
    id: text().primaryKey(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** `user:<id>` or `api_key:<id>`. */
    createdBy: text().notNull(),
    length: bigint({ mode: 'number' }).notNull(),
    offset: bigint({ mode: 'number' }).notNull().default(0),
    /** What the client declared (tus Upload-Metadata): filename, type, altText. */
    metadata: jsonb().$type<{ filename?: string; type: string; altText?: string }>().notNull(),
    status: text({ enum: MEDIA_UPLOAD_STATUSES }).notNull().default('uploading'),
    /** Why the finish refused the file (status `failed`). */
    error: text(),
    mediaId: uuid().references(() => media.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('media_uploads_workspace_idx').on(t.workspaceId, t.createdAt),
    index('media_uploads_expires_idx').on(t.expiresAt),
    unique('media_uploads_media_uq').on(t.mediaId),
    check('media_uploads_status_ck', sql`${t.status} in ('uploading', 'finished', 'failed')`),
    check('media_uploads_offset_ck', sql`${t.offset} >= 0 and ${t.offset} <= ${t.length}`),
    check('media_uploads_finished_ck', sql`(${t.status} = 'finished') = (${t.mediaId} is not null)`),
  ],
);
export type MediaUpload = typeof mediaUploads.$inferSelect;

/**
 * The images of a post in order; `part` is the thread part they belong to (0 for a single post): up to 4 per post
 * or part, each part's published with that part only.
 */
export const postMedia = pgTable(
  'post_media',
  {
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    part: integer().notNull().default(0),
    position: integer().notNull(),
    mediaId: uuid()
      .notNull()
      .references(() => media.id, { onDelete: 'restrict' }),
  },
  (t) => [
    primaryKey({ name: 'post_media_pk', columns: [t.postId, t.part, t.position] }),
    index('post_media_media_idx').on(t.mediaId),
    check('post_media_position_ck', sql`${t.position} between 0 and ${sql.raw(String(MAX_MEDIA_PER_POST - 1))}`),
    check('post_media_part_ck', sql`${t.part} >= 0 and ${t.part} < ${sql.raw(String(MAX_THREAD_PARTS))}`),
  ],
);
export type PostMedia = typeof postMedia.$inferSelect;
export type NewDelivery = typeof deliveries.$inferInsert;
export type DeliveryStatus = (typeof deliveryStatusEnum.enumValues)[number];

/**
 * Per-network text: the text one target account gets instead of the post's own (`variants` in the API).
 * Keyed by (post, account) rather than stored on the delivery: it is content, not delivery state, and stays
 * one row per account however a post's deliveries are split (thread parts).
 */
export const postVariants = pgTable(
  'post_variants',
  {
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: uuid()
      .notNull()
      .references(() => socialAccounts.id, { onDelete: 'cascade' }),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The account's own text; null: it publishes the post's text (the variant holds only a first comment). */
    text: text(),
    /** The account's own first comment; null: the post's (`posts.first_comment`), if any. */
    firstComment: text(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'post_variants_pk', columns: [t.postId, t.accountId] }),
    check('post_variants_content_ck', sql`${t.text} is not null or ${t.firstComment} is not null`),
  ],
);
export type PostVariant = typeof postVariants.$inferSelect;

/** An account's weekly posting slots, as wall-clock times in its own zone (`slots`: [{ weekday, time }]). */
export const postingSchedules = pgTable('posting_schedules', {
  accountId: uuid()
    .primaryKey()
    .references(() => socialAccounts.id, { onDelete: 'cascade' }),
  workspaceId: uuid()
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  timeZone: text().notNull(),
  slots: jsonb().$type<{ weekday: string; time: string }[]>().notNull().default([]),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
export type PostingSchedule = typeof postingSchedules.$inferSelect;

/**
 * A slot taken by a queued post ("Add to queue", `slot: "next"`), written in the post's own transaction.
 * `slot_reservations_account_slot_uq` is the guard: two posts can never take one slot of an account. The row
 * is written before the post (whose time is the slot), so `post_id` has no foreign key; both commit together.
 * Canceling the delivery or moving the post deletes the row, which frees the slot.
 */
export const slotReservations = pgTable(
  'slot_reservations',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    accountId: uuid()
      .notNull()
      .references(() => socialAccounts.id, { onDelete: 'cascade' }),
    slotAt: timestamp({ withTimezone: true }).notNull(),
    postId: uuid().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('slot_reservations_account_slot_uq').on(t.accountId, t.slotAt),
    index('slot_reservations_post_idx').on(t.postId),
  ],
);
export type SlotReservation = typeof slotReservations.$inferSelect;

/** The claim table: one row per delivery; each new claim bumps `generation`, the fencing token. */
export const claims = pgTable(
  'claims',
  {
    deliveryId: uuid()
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    generation: integer().notNull().default(1),
    workerId: text().notNull(),
    leaseExpiresAt: timestamp({ withTimezone: true }).notNull(),
    claimedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    unique('claims_delivery_uq').on(t.deliveryId),
    index('claims_lease_idx')
      .on(t.leaseExpiresAt)
      .where(sql`${t.releasedAt} is null`),
  ],
);
export type Claim = typeof claims.$inferSelect;

export const attempts = pgTable(
  'attempts',
  {
    id: uuid().primaryKey().defaultRandom(),
    deliveryId: uuid()
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    generation: integer().notNull(),
    // The delivery's account, copied when the attempt starts, so the per-account rate limit counts one index range
    // (attempts_account_started_idx) instead of joining every delivery of the account. No foreign key of its own: the
    // delivery's holds it (an attempt goes with its delivery, and a delivery's account never changes).
    accountId: uuid().notNull(),
    startedAt: createdAt(),
    finishedAt: timestamp({ withTimezone: true }),
    outcome: attemptOutcomeEnum(),
    httpStatus: integer(),
    detail: text(),
    durationMs: integer(),
  },
  (t) => [
    // One platform call per claim generation: a replayed job cannot start a second call.
    unique('attempts_delivery_generation_uq').on(t.deliveryId, t.generation),
    index('attempts_account_started_idx').on(t.accountId, t.startedAt),
  ],
);
export type Attempt = typeof attempts.$inferSelect;

export const reconciliations = pgTable(
  'reconciliations',
  {
    id: uuid().primaryKey().defaultRandom(),
    deliveryId: uuid()
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    strategy: text().notNull(),
    windowStart: timestamp({ withTimezone: true }),
    windowEnd: timestamp({ withTimezone: true }),
    readCount: integer(),
    matchedExternalId: text(),
    decision: reconcileDecisionEnum().notNull(),
    evidence: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    nextCheckAt: timestamp({ withTimezone: true }),
    /** The late-copy watch's step (0, 1, …) for its checks; null for the reconciler's. */
    watchStep: integer(),
    checkedAt: createdAt(),
  },
  (t) => [
    index('reconciliations_delivery_idx').on(t.deliveryId, t.checkedAt),
    // One stored check per watch step: a replayed or racing watcher cannot record a step twice.
    uniqueIndex('reconciliations_watch_step_uq')
      .on(t.deliveryId, t.watchStep)
      .where(sql`${t.watchStep} is not null`),
  ],
);
export type Reconciliation = typeof reconciliations.$inferSelect;

/** Status history: every transition is a row (who, what, when). */
export const deliveryEvents = pgTable(
  'delivery_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    deliveryId: uuid()
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    fromStatus: deliveryStatusEnum(),
    toStatus: deliveryStatusEnum().notNull(),
    actor: text().notNull(),
    reason: text(),
    detail: jsonb().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('delivery_events_delivery_idx').on(t.deliveryId, t.id)],
);
export type DeliveryEvent = typeof deliveryEvents.$inferSelect;

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    operation: text().notNull(),
    key: text().notNull(),
    fingerprint: text().notNull(),
    state: idempotencyStateEnum().notNull().default('in_flight'),
    /** While in flight: after this the first request is presumed dead and the key may be taken over. */
    lockedUntil: timestamp({ withTimezone: true }),
    /** Fencing token of the request that holds the key; a taken-over request cannot complete it. */
    lockToken: uuid(),
    responseStatus: integer(),
    responseBody: text(),
    resourceId: uuid(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    unique('idempotency_keys_scope_uq').on(t.workspaceId, t.operation, t.key),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);
export type IdempotencyKey = typeof idempotencyKeys.$inferSelect;

export const API_KEY_SCOPES = [
  'posts:read',
  'posts:write',
  'accounts:read',
  'accounts:write',
  'webhooks:write',
  'workspace:write',
  'posts:approve',
  'inbox:read',
  'inbox:write',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    prefix: text().notNull(),
    /** SHA-256 of the key; the key itself is shown once and never stored. */
    hash: text().notNull(),
    scopes: text()
      .array()
      .$type<ApiKeyScope[]>()
      .notNull()
      .default(sql`array['posts:read','posts:write','accounts:read']::text[]`),
    createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    lastUsedAt: timestamp({ withTimezone: true }),
    /** Fixed one-minute rate window: its start and the requests counted in it (one atomic update per request). */
    rateWindowStart: timestamp({ withTimezone: true }),
    rateWindowCount: integer().notNull().default(0),
    revokedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('api_keys_hash_uq').on(t.hash),
    index('api_keys_workspace_idx').on(t.workspaceId),
    check(
      'api_keys_scopes_ck',
      sql`${t.scopes} <@ array['posts:read','posts:write','accounts:read','accounts:write','webhooks:write','workspace:write','posts:approve','inbox:read','inbox:write']::text[]`,
    ),
  ],
);
export type ApiKey = typeof apiKeys.$inferSelect;

export const notifications = pgTable(
  'notifications',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    deliveryId: uuid().references(() => deliveries.id, { onDelete: 'cascade' }),
    /** Shown only to this member (an approval decision tells the post's author); null: every member. */
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    /** The post it is about when it is not one delivery's (approval decisions). */
    postId: uuid().references(() => posts.id, { onDelete: 'cascade' }),
    /** An account's incident (its token needs a reconnect); null for delivery notifications. */
    accountId: uuid().references(() => socialAccounts.id, { onDelete: 'cascade' }),
    /** Which incident of the account: the sealed credentials that went bad (every way back to `ok` reseals them). */
    incidentKey: text(),
    kind: text().notNull(),
    message: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // One notification per delivery and kind: a replayed event does not notify twice.
    unique('notifications_delivery_kind_uq').on(t.deliveryId, t.kind),
    // One notification per account incident: two workers seeing the same 401 notify once.
    unique('notifications_account_incident_uq').on(t.accountId, t.kind, t.incidentKey),
    // One notification per post event (an approval request per revision): replayed edits notify once.
    unique('notifications_post_event_uq').on(t.postId, t.kind, t.incidentKey),
    index('notifications_workspace_idx').on(t.workspaceId, t.createdAt),
  ],
);

/** Read state per user: one member opening the bell never hides an alert from another. */
export const notificationReads = pgTable(
  'notification_reads',
  {
    notificationId: uuid()
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'notification_reads_pk', columns: [t.notificationId, t.userId] }),
    index('notification_reads_user_idx').on(t.userId),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    actorUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    action: text().notNull(),
    targetType: text().notNull(),
    targetId: text().notNull(),
    detail: jsonb().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_workspace_idx').on(t.workspaceId, t.createdAt)],
);

/**
 * One OAuth connect in flight (lib/oauth/state.ts): bound to the admin who started it and their workspace,
 * single use, ten minutes. Only the state's hash is stored; the PKCE verifier is sealed to the row.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    id: uuid().primaryKey().defaultRandom(),
    stateHash: text().notNull(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: providerEnum().notNull(),
    codeVerifierSealed: text().notNull(),
    redirectUri: text().notNull(),
    sandbox: boolean().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [unique('oauth_states_state_hash_uq').on(t.stateHash), index('oauth_states_expires_idx').on(t.expiresAt)],
);
export type OAuthState = typeof oauthStates.$inferSelect;

/** The events an endpoint can subscribe to (Settings → Webhooks, /api/v1/webhook-endpoints). */
export const WEBHOOK_EVENT_TYPES = [
  'delivery.sent',
  'delivery.failed',
  'delivery.ambiguous',
  'delivery.needs_review',
  'delivery.missed',
  'delivery.duplicate_detected',
  'post.approved',
  'post.rejected',
  'inbox.received',
  'inbox.answered',
  'metrics.updated',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const webhookMessageStatusEnum = pgEnum('webhook_message_status', ['pending', 'succeeded', 'failed']);

/** A receiver of outbound webhooks; its signing secret is sealed (lib/crypto) to the row and shown once. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text().notNull(),
    secretSealed: text().notNull(),
    events: text().array().$type<WebhookEventType[]>().notNull(),
    enabled: boolean().notNull().default(true),
    createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_workspace_idx').on(t.workspaceId)],
);
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;

/**
 * The outbox: one row per event, written in the transaction that caused it (the delivery trigger or
 * emitWebhookEvent). Its id is the `webhook-id` on every attempt; `sequence` grows per subject.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    type: text().notNull(),
    /** What the event is about (`delivery:<id>`, `post:<id>`); the sequence counts per subject. */
    subject: text().notNull(),
    sequence: integer().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // Two events of one subject never share a number: a late retry is told apart from the newest state.
    unique('webhook_events_subject_sequence_uq').on(t.workspaceId, t.subject, t.sequence),
    index('webhook_events_workspace_idx').on(t.workspaceId, t.createdAt),
  ],
);
export type WebhookEvent = typeof webhookEvents.$inferSelect;

/** One event for one endpoint: sent at least once, claimed with a lease and a generation like a delivery. */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    endpointId: uuid()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: uuid()
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    status: webhookMessageStatusEnum().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Fencing token: every claim bumps it, and an outcome is written only under the generation that sent it. */
    generation: integer().notNull().default(0),
    leaseExpiresAt: timestamp({ withTimezone: true }),
    lastStatusCode: integer(),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('webhook_messages_endpoint_event_uq').on(t.endpointId, t.eventId),
    index('webhook_messages_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_messages_endpoint_idx').on(t.endpointId, t.createdAt),
  ],
);
export type WebhookMessage = typeof webhookMessages.$inferSelect;

/** The delivery log: one row per HTTP attempt, with a short excerpt of the answer (never the whole body). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    messageId: uuid()
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    generation: integer().notNull(),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    ok: boolean().notNull(),
    statusCode: integer(),
    latencyMs: integer().notNull(),
    error: text(),
    responseExcerpt: text(),
  },
  (t) => [
    // One logged attempt per claim: a replayed outcome does not log twice.
    unique('webhook_attempts_message_generation_uq').on(t.messageId, t.generation),
  ],
);
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;

export const approvalDecisionEnum = pgEnum('approval_decision', ['approved', 'changes_requested']);

/**
 * One decision per post revision. `approval_decisions_post_revision_uq` is the guard: two approvers (two tabs,
 * a double click, an admin and the client's link) racing on one revision produce one row; the loser reads it.
 * Who decided: a member (`decided_by_user_id`), an API key, or a client link (`approval_link_id`).
 */
export const approvalDecisions = pgTable(
  'approval_decisions',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    revision: integer().notNull(),
    decision: approvalDecisionEnum().notNull(),
    comment: text(),
    decidedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    decidedByApiKeyId: uuid().references(() => apiKeys.id, { onDelete: 'set null' }),
    approvalLinkId: uuid().references(() => approvalLinks.id, { onDelete: 'set null' }),
    /** How the decider is named to others ("Already approved by …"), frozen when decided. */
    deciderName: text().notNull(),
    decidedAt: createdAt(),
  },
  (t) => [
    unique('approval_decisions_post_revision_uq').on(t.postId, t.revision),
    index('approval_decisions_workspace_idx').on(t.workspaceId, t.decidedAt),
  ],
);
export type ApprovalDecision = typeof approvalDecisions.$inferSelect;

/**
 * A client's approval link (`/approve/<id>.<secret>`): only the secret's SHA-256 is stored. It covers the posts
 * listed when it was made (one post, or everything pending that week), expires, and can be revoked.
 */
export const approvalLinks = pgTable(
  'approval_links',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    secretHash: text().notNull(),
    postIds: uuid().array().notNull(),
    label: text().notNull(),
    createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    /** Fixed one-minute rate window of the public route (one atomic update per request). */
    rateWindowStart: timestamp({ withTimezone: true }),
    rateWindowCount: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    unique('approval_links_secret_hash_uq').on(t.secretHash),
    index('approval_links_workspace_idx').on(t.workspaceId, t.createdAt),
    check('approval_links_post_ids_ck', sql`cardinality(${t.postIds}) between 1 and 200`),
  ],
);
export type ApprovalLink = typeof approvalLinks.$inferSelect;

/**
 * A workspace's client request link (`/request/<id>.<secret>`, token as for approval links): anyone holding it
 * can send the team a post request without an account. It does not expire; an admin revokes it.
 */
export const requestLinks = pgTable(
  'request_links',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    secretHash: text().notNull(),
    label: text().notNull(),
    createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp({ withTimezone: true }),
    /** Optional end of the link (null: until revoked); past it the link answers 410 like a revoked one. */
    expiresAt: timestamp({ withTimezone: true }),
    /** Fixed one-minute rate window of the public page and its routes (one atomic update per request). */
    rateWindowStart: timestamp({ withTimezone: true }),
    rateWindowCount: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    unique('request_links_secret_hash_uq').on(t.secretHash),
    index('request_links_workspace_idx').on(t.workspaceId, t.createdAt),
  ],
);
export type RequestLink = typeof requestLinks.$inferSelect;

/**
 * One client request: the draft post it became, who asked and what for. `post_requests_link_key_uq` is the guard:
 * the form's key (minted when it loads, kept with its draft) makes a double click, a reload or a retry one request.
 * The row is written before the post, in the same transaction, so the loser of a race writes nothing.
 */
export const postRequests = pgTable(
  'post_requests',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    requestLinkId: uuid()
      .notNull()
      .references(() => requestLinks.id, { onDelete: 'cascade' }),
    /** The draft; null once the team deleted it (the request stays as a record). */
    postId: uuid().references(() => posts.id, { onDelete: 'set null' }),
    requesterName: text().notNull(),
    note: text(),
    preferredAt: timestamp({ withTimezone: true }),
    key: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('post_requests_link_key_uq').on(t.requestLinkId, t.key),
    index('post_requests_post_idx').on(t.postId),
    index('post_requests_workspace_idx').on(t.workspaceId, t.createdAt),
  ],
);
export type PostRequest = typeof postRequests.$inferSelect;

/** Per client address and request link: a fixed one-minute window of public requests (one atomic upsert each). */
export const requestAddressWindows = pgTable(
  'request_address_windows',
  {
    requestLinkId: uuid()
      .notNull()
      .references(() => requestLinks.id, { onDelete: 'cascade' }),
    address: text().notNull(),
    rateWindowStart: timestamp({ withTimezone: true }).notNull(),
    rateWindowCount: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.requestLinkId, t.address] })],
);

/** The same per-address window for approval links: one holder of a link cannot lock every other client out. */
export const approvalAddressWindows = pgTable(
  'approval_address_windows',
  {
    approvalLinkId: uuid()
      .notNull()
      .references(() => approvalLinks.id, { onDelete: 'cascade' }),
    address: text().notNull(),
    rateWindowStart: timestamp({ withTimezone: true }).notNull(),
    rateWindowCount: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.approvalLinkId, t.address] })],
);

export const emailModeEnum = pgEnum('email_mode', ['immediately', 'digest', 'off']);

/** A member's email choice for one workspace; no row means `immediately`. */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    emailMode: emailModeEnum().notNull().default('immediately'),
    /** New inbox messages (docs/inbox.md#notifications): emailed at once, in the daily digest, or not at all. */
    inboxMode: emailModeEnum().notNull().default('immediately'),
    updatedAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'notification_preferences_pk', columns: [t.workspaceId, t.userId] })],
);
export type NotificationPreference = typeof notificationPreferences.$inferSelect;

/** The workspace's Slack incoming webhook (Settings → Notifications); the URL is a secret, stored sealed. */
export const slackWebhooks = pgTable('slack_webhooks', {
  workspaceId: uuid()
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  urlSealed: text().notNull(),
  /** The host only, to show which webhook is set without opening the secret. */
  host: text().notNull(),
  createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

export const notificationChannelEnum = pgEnum('notification_channel', ['email', 'slack', 'email_digest']);
export const notificationSendStatusEnum = pgEnum('notification_send_status', [
  'pending',
  'sent',
  'failed',
  // Waits for the member's daily digest, then `bundled` into one `email_digest` send.
  'digest',
  'bundled',
]);

/**
 * One message to send: a notification on one channel to one recipient, or one member's daily digest. `key` is
 * the once-per-event guard (`email:<notification>:<user>`, `slack:<notification>`, `digest:<workspace>:<user>:<day>`);
 * claims follow the webhook sender: SKIP LOCKED, a lease, and a generation that fences every write.
 */
export const notificationSends = pgTable(
  'notification_sends',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    channel: notificationChannelEnum().notNull(),
    notificationId: uuid().references(() => notifications.id, { onDelete: 'cascade' }),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    /** The UTC day a digest row belongs to (and a digest send covers). */
    digestDay: text(),
    /** The digest send that bundled this row. */
    digestSendId: uuid(),
    /** An invitation email (its recipient is the invitation's address, not a member). */
    invitationId: uuid().references(() => workspaceInvitations.id, { onDelete: 'cascade' }),
    /** A monthly client report's email (its recipient is the report's address, not a member). */
    clientReportId: uuid().references((): AnyPgColumn => clientReports.id, { onDelete: 'cascade' }),
    status: notificationSendStatusEnum().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }),
    generation: integer().notNull().default(0),
    leaseExpiresAt: timestamp({ withTimezone: true }),
    lastError: text(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('notification_sends_key_uq').on(t.key),
    index('notification_sends_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('notification_sends_digest_idx')
      .on(t.digestDay)
      .where(sql`${t.status} = 'digest'`),
    index('notification_sends_workspace_idx').on(t.workspaceId, t.createdAt),
  ],
);
export type NotificationSend = typeof notificationSends.$inferSelect;

/** Emails kept instead of sent when SMTP_URL is unset: the development Outbox page reads them. */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Null for an account email (a password reset link), which is sent at once instead of through a send row. */
    sendId: uuid().references(() => notificationSends.id, { onDelete: 'cascade' }),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    /** An account email (a password link): only its own user sees it in the Outbox, never the workspace's admins. */
    recipientOnly: boolean().notNull().default(false),
    toAddress: text().notNull(),
    subject: text().notNull(),
    body: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // A second sender storing the same send is refused by the database, not by a check.
    unique('outbox_emails_send_uq').on(t.sendId),
    index('outbox_emails_workspace_idx').on(t.workspaceId, t.createdAt),
  ],
);
export type OutboxEmail = typeof outboxEmails.$inferSelect;

/**
 * The watch for a late copy (docs/architecture.md#late-copies): one per delivery that was published again after
 * a release, created by a trigger when it is recorded `sent`. Its checks fall due at the configured delays from
 * `startedAt` (RECONCILE_WATCH_DELAYS_MS); `checksDone` counts the steps taken, fenced by `generation`.
 */
export const lateCopyWatches = pgTable(
  'late_copy_watches',
  {
    deliveryId: uuid()
      .primaryKey()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    checksDone: integer().notNull().default(0),
    generation: integer().notNull().default(0),
    workerId: text(),
    leaseExpiresAt: timestamp({ withTimezone: true }),
    /** Set when no check remains: `clear` (all steps one copy), `late_copy`, `stopped` (no longer sent), `not_needed`. */
    endedAt: timestamp({ withTimezone: true }),
    outcome: text(),
  },
  (t) => [
    index('late_copy_watches_open_idx')
      .on(t.startedAt)
      .where(sql`${t.endedAt} is null`),
  ],
);
export type LateCopyWatch = typeof lateCopyWatches.$inferSelect;

/**
 * What a platform host taught us (docs/architecture.md#learned-allowance): the longest delay seen between our call's
 * start and the post's creation there. The reconciler's quiet period for that host covers it, up to a ceiling.
 */
export const hostAllowances = pgTable(
  'host_allowances',
  {
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    provider: providerEnum().notNull(),
    /** The account base URL's host (`sandbox` for the built-in one). */
    host: text().notNull(),
    observedWorstMs: integer().notNull(),
    observedAt: timestamp({ withTimezone: true }).notNull(),
    /** What showed it: `found` (a reconciliation found the post) or `late_copy` (the watch found a late copy). */
    source: text().notNull(),
  },
  (t) => [primaryKey({ name: 'host_allowances_pk', columns: [t.workspaceId, t.provider, t.host] })],
);
export type HostAllowance = typeof hostAllowances.$inferSelect;

/**
 * The first run (/setup, `npm run setup`): a single row, id 1, inserted by the setup transaction. Its primary key
 * and check make "set up exactly once" a constraint: a second setup, however parallel, fails on the insert.
 */
export const installation = pgTable(
  'installation',
  {
    id: integer().primaryKey().default(1),
    adminUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [check('installation_singleton_ck', sql`${t.id} = 1`)],
);

/** Setup tokens printed at server start (and by `npm run setup`) while no one has set up: only their SHA-256. */
export const setupTokens = pgTable('setup_tokens', {
  tokenHash: text().primaryKey(),
  createdAt: createdAt(),
});

export const passwordTokenPurposeEnum = pgEnum('password_token_purpose', ['set', 'reset']);

/** One-time links that set a password: `set` (headless setup) and `reset` ("Forgot password"); only hashes. */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: passwordTokenPurposeEnum().notNull(),
    tokenHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [unique('password_tokens_hash_uq').on(t.tokenHash), index('password_tokens_user_idx').on(t.userId)],
);

/**
 * Request windows, one atomic upsert per request: "forgot password" keyed `email:<address>` or `ip:<address>`, email
 * change requests keyed `email-change:<user id>`.
 */
export const passwordResetWindows = pgTable('password_reset_windows', {
  key: text().primaryKey(),
  windowStart: timestamp({ withTimezone: true }).notNull(),
  count: integer().notNull(),
});

/** A user's WebAuthn credential (lib/auth/passkeys.ts): a passwordless sign-in that is two-factor by itself. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id as the authenticator gives it (base64url); an assertion names it. */
    credentialId: text().notNull(),
    /** The COSE public key (base64url): only ever used to verify signatures. */
    publicKey: text().notNull(),
    /** The authenticator's signature counter; a counter that goes backwards means a cloned key (refused). */
    counter: bigint({ mode: 'number' }).notNull().default(0),
    transports: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    name: text().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    unique('passkeys_credential_id_uq').on(t.credentialId),
    index('passkeys_user_idx').on(t.userId),
    check('passkeys_name_ck', sql`length(${t.name}) between 1 and 60`),
  ],
);
export type Passkey = typeof passkeys.$inferSelect;

/**
 * A WebAuthn challenge handed to a browser: only its SHA-256 is kept, it expires, and it is used once (consumed by
 * DELETE … RETURNING, so a replayed response finds nothing). Registration and second-factor challenges belong to a
 * user.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challengeHash: text().primaryKey(),
    purpose: text({ enum: ['register', 'authenticate', 'second_factor'] }).notNull(),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('webauthn_challenges_expires_idx').on(t.expiresAt),
    check('webauthn_challenges_purpose_ck', sql`${t.purpose} in ('register', 'authenticate', 'second_factor')`),
    check('webauthn_challenges_register_user_ck', sql`${t.purpose} <> 'register' or ${t.userId} is not null`),
    // A second-factor challenge is issued after one user's password: only that user's sign-in may take it.
    check('webauthn_challenges_second_factor_user_ck', sql`${t.purpose} <> 'second_factor' or ${t.userId} is not null`),
  ],
);

export { INBOX_ITEM_KINDS, type InboxItemKind };

/**
 * One thing someone said to a connected account, read from the platform by the inbox job (docs/inbox.md): stored
 * once per account and platform id (`inbox_items_account_platform_uq`), so overlapping reads and re-runs add nothing.
 * `deliveryId` is our post it answers where it is under one; `answeredAt` is set when an answer is taken for it
 * (inbox_answers) or when the account answered it on the platform itself (`answerSource` `platform`).
 */
export const inboxItems = pgTable(
  'inbox_items',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    accountId: uuid()
      .notNull()
      .references(() => socialAccounts.id, { onDelete: 'cascade' }),
    provider: providerEnum().notNull(),
    /** The platform's id of the item (a tweet, a status, a comment, a DM event, an at:// URI). */
    platformId: text().notNull(),
    kind: text({ enum: INBOX_ITEM_KINDS }).notNull(),
    /** Which of the account's streams read it (`mentions`, `dms`, `notifications`, `comments`…). */
    stream: text().notNull(),
    authorPlatformId: text(),
    authorHandle: text().notNull(),
    authorName: text(),
    text: text().notNull(),
    /** Where the platform shows it; null where it has no page (a DM). */
    url: text(),
    media: jsonb().$type<{ type: string; url: string }[]>().notNull().default([]),
    /** The platform id of what it answers (our post, our reply, another comment); null for a mention or a DM. */
    inReplyTo: text(),
    /** A DM's conversation (and where a network names one, a thread's root). */
    conversationId: text(),
    /** Our post it is under (the delivery whose platform id it answers, directly or at the thread's root). */
    deliveryId: uuid().references(() => deliveries.id, { onDelete: 'set null' }),
    /** When the platform says it was written. */
    receivedAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: createdAt(),
    /** An answer was taken for it (`semel`), or the account answered it on the platform itself (`platform`). */
    answeredAt: timestamp({ withTimezone: true }),
    answerSource: text({ enum: ['semel', 'platform'] }),
    /** The account's own reply found on the platform (answered from another app). */
    platformAnswerId: text(),
    doneAt: timestamp({ withTimezone: true }),
    doneByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    assignedToUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    assignedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // Each inbound item once, whichever read found it and however often (docs/inbox.md#reading).
    unique('inbox_items_account_platform_uq').on(t.accountId, t.platformId),
    check('inbox_items_kind_ck', sql`${t.kind} in ('reply', 'comment', 'mention', 'dm')`),
    check('inbox_items_answer_source_ck', sql`(${t.answeredAt} is null) = (${t.answerSource} is null)`),
    // The inbox page: one workspace's items, newest first, one index range whatever the table holds.
    index('inbox_items_workspace_received_idx').on(t.workspaceId, t.receivedAt, t.id),
    // "Unanswered" (the default filter): the open items only.
    index('inbox_items_open_idx')
      .on(t.workspaceId, t.receivedAt, t.id)
      .where(sql`${t.answeredAt} is null and ${t.doneAt} is null`),
    index('inbox_items_account_received_idx').on(t.accountId, t.receivedAt, t.id),
    index('inbox_items_assigned_idx')
      .on(t.assignedToUserId, t.receivedAt)
      .where(sql`${t.assignedToUserId} is not null`),
    // The conversation view: an item's parent and siblings, a DM's conversation.
    index('inbox_items_account_parent_idx').on(t.accountId, t.inReplyTo),
    index('inbox_items_account_conversation_idx')
      .on(t.accountId, t.conversationId)
      .where(sql`${t.conversationId} is not null`),
  ],
);
export type InboxItem = typeof inboxItems.$inferSelect;

/**
 * An answer taken for an inbound item: the claim (docs/inbox.md#answering). `inbox_answers_item_number_uq` is the
 * guard: the first answer is number 1, and "send another reply anyway" names the number it adds (the answers the
 * member saw + 1), so two teammates answering at once, a double click or a resubmission write one row; the loser
 * reads the winner. Its reply or DM is an ordinary post (`postId`), published exactly once like any other.
 */
export const inboxAnswers = pgTable(
  'inbox_answers',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    itemId: uuid()
      .notNull()
      .references(() => inboxItems.id, { onDelete: 'cascade' }),
    number: integer().notNull(),
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    apiKeyId: uuid(),
    /** Who answered, as shown to the teammate who comes second (kept if the user is removed later). */
    actorName: text().notNull(),
    text: text().notNull(),
    createdAt: createdAt(),
    /** When the inbox job saw its delivery end (`sent`, or `failed` for failed, canceled or missed). */
    settledAt: timestamp({ withTimezone: true }),
    outcome: text({ enum: ['sent', 'failed'] }),
  },
  (t) => [
    unique('inbox_answers_item_number_uq').on(t.itemId, t.number),
    check('inbox_answers_number_ck', sql`${t.number} >= 1`),
    index('inbox_answers_unsettled_idx')
      .on(t.createdAt)
      .where(sql`${t.settledAt} is null`),
    index('inbox_answers_post_idx').on(t.postId),
  ],
);
export type InboxAnswer = typeof inboxAnswers.$inferSelect;

/** "Ana is replying…": one heartbeat row per member and item, alive until `expiresAt` (docs/inbox.md#presence). */
export const inboxPresence = pgTable(
  'inbox_presence',
  {
    itemId: uuid()
      .notNull()
      .references(() => inboxItems.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    startedAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'inbox_presence_pk', columns: [t.itemId, t.userId] }),
    index('inbox_presence_expires_idx').on(t.expiresAt),
  ],
);

/** A teammate's internal note on an item (never sent anywhere); one per client key, so a resubmission adds none. */
export const inboxNotes = pgTable(
  'inbox_notes',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    itemId: uuid()
      .notNull()
      .references(() => inboxItems.id, { onDelete: 'cascade' }),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    clientKey: text().notNull(),
    text: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('inbox_notes_item_key_uq').on(t.itemId, t.clientKey),
    check('inbox_notes_text_ck', sql`length(${t.text}) between 1 and 2000`),
  ],
);
export type InboxNote = typeof inboxNotes.$inferSelect;

/** A workspace's saved reply: its text may hold variables (`{first_name}`…) filled per item (lib/inbox/variables.ts). */
export const savedReplies = pgTable(
  'saved_replies',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    text: text().notNull(),
    createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('saved_replies_workspace_name_uq').on(t.workspaceId, t.name),
    check('saved_replies_name_ck', sql`length(${t.name}) between 1 and 80`),
    check('saved_replies_text_ck', sql`length(${t.text}) between 1 and 5000`),
  ],
);
export type SavedReply = typeof savedReplies.$inferSelect;

/**
 * The account's own replies and DMs seen on the platform by the inbox reads (docs/inbox.md#answered-elsewhere): what
 * they answer is marked answered, whichever is read first, the item or the account's answer to it.
 */
export const inboxOwnMessages = pgTable(
  'inbox_own_messages',
  {
    accountId: uuid()
      .notNull()
      .references(() => socialAccounts.id, { onDelete: 'cascade' }),
    platformId: text().notNull(),
    inReplyTo: text(),
    conversationId: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    /** What it said, where the read has it: named when an answer from Semel is refused as a second one. */
    text: text(),
  },
  (t) => [
    primaryKey({ name: 'inbox_own_messages_pk', columns: [t.accountId, t.platformId] }),
    index('inbox_own_messages_parent_idx').on(t.accountId, t.inReplyTo),
    index('inbox_own_messages_conversation_idx')
      .on(t.accountId, t.conversationId, t.createdAt)
      .where(sql`${t.conversationId} is not null`),
  ],
);

/**
 * Where the inbox job is in one stream of one account (docs/inbox.md#reading): the stream's own cursor (a since id, a
 * page token, a time), when it is read next, and the job's claim of it (lease, generation): every write after a
 * claim is fenced by the generation, so a reader whose lease lapsed stores nothing and moves no cursor.
 */
export const inboxCursors = pgTable(
  'inbox_cursors',
  {
    accountId: uuid()
      .notNull()
      .references(() => socialAccounts.id, { onDelete: 'cascade' }),
    stream: text().notNull(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    cursor: text(),
    nextReadAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    generation: integer().notNull().default(0),
    workerId: text(),
    leaseExpiresAt: timestamp({ withTimezone: true }),
    /** Unreadable reads in a row (the platform failed to answer); reset by a read. */
    failures: integer().notNull().default(0),
    lastReadAt: timestamp({ withTimezone: true }),
    lastError: text(),
  },
  (t) => [
    primaryKey({ name: 'inbox_cursors_pk', columns: [t.accountId, t.stream] }),
    index('inbox_cursors_due_idx').on(t.nextReadAt),
  ],
);
export type InboxCursor = typeof inboxCursors.$inferSelect;

/**
 * What platforms tell us by webhook (`/api/webhooks/<network>`: lib/platform-webhooks/), each event stored once by
 * the platform's own id for it — or, where it has none (Meta), what identifies it: its field and object id — so a
 * redelivery changes nothing (`platform_events_key_uq`, per account it concerns). Signed by the network's app secret, or by the sandbox's
 * (`sandbox`: matched only to sandbox accounts). A webhook reports, it never creates: an event for an id no
 * delivery knows is kept (`unmatched`) and shown, never turned into a post; one that matches is applied only
 * through the delivery state machine.
 */
export const platformEvents = pgTable(
  'platform_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    provider: providerEnum().notNull(),
    sandbox: boolean().notNull(),
    eventKey: text().notNull(),
    /** The event's kind as the platform names it (Meta's field, `comments`; TikTok's `post.publish.complete`). */
    kind: text().notNull(),
    /** The platform's id of the account it concerns, and of the post (or publish) it names. */
    platformUserId: text(),
    objectId: text(),
    workspaceId: uuid().references(() => workspaces.id, { onDelete: 'cascade' }),
    accountId: uuid().references(() => socialAccounts.id, { onDelete: 'set null' }),
    deliveryId: uuid().references(() => deliveries.id, { onDelete: 'set null' }),
    /** `kept` (stored for later readers: the inbox), `applied` (it moved a delivery forward: an ambiguous one read again
     * now), `ignored` (it could move nothing: the delivery was settled already, a late or contradicting event),
     * `unmatched` (no account or delivery knows the id yet; matched when a delivery keeps it). */
    outcome: text({ enum: ['kept', 'applied', 'ignored', 'unmatched'] }).notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    receivedAt: createdAt(),
  },
  (t) => [
    // One row per connected account it concerns (one platform account may be connected in several workspaces);
    // an unmatched event is one row too (nulls not distinct).
    unique('platform_events_key_uq').on(t.provider, t.sandbox, t.eventKey, t.accountId).nullsNotDistinct(),
    index('platform_events_workspace_idx').on(t.workspaceId, t.receivedAt),
    index('platform_events_delivery_idx').on(t.deliveryId),
    // An early event, waiting for its delivery to learn the id it names (matched when the id is kept).
    index('platform_events_unmatched_idx')
      .on(t.accountId, t.objectId)
      .where(sql`${t.outcome} = 'unmatched'`),
    check('platform_events_outcome_ck', sql`${t.outcome} in ('kept', 'applied', 'ignored', 'unmatched')`),
  ],
);
export type PlatformEvent = typeof platformEvents.$inferSelect;

/** What a post asks of its links (posts.links): tracked or not, a UTM preset, a campaign of its own. */
export type PostLinkOptions = { track?: boolean; presetId?: string; campaign?: string };

/** The link shorteners a workspace may use: Semel's own redirect (`/l/<code>`) or an external service. */
export const SHORTENERS = ['semel', 'bitly', 'shlink', 'yourls'] as const;
export type ShortenerName = (typeof SHORTENERS)[number];

/**
 * A workspace's link tracking (Settings → Links): UTM tags on every post's links (utm_source = the network,
 * utm_medium and utm_campaign from the post's preset), and shortening through Semel's redirect or an external
 * shortener (its URL and its token sealed, bound to the workspace). No row: nothing is tracked.
 */
export const linkSettings = pgTable(
  'link_settings',
  {
    workspaceId: uuid()
      .primaryKey()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    utm: boolean().notNull().default(false),
    shorten: boolean().notNull().default(false),
    shortener: text({ enum: SHORTENERS }).notNull().default('semel'),
    /** Shlink's or YOURLS' base URL (`https://s.example`); Bitly: its API base (default api-ssl.bitly.com). */
    shortenerUrl: text(),
    /** Bitly's token, Shlink's API key or YOURLS' signature token: sealed (lib/crypto/secret-box.ts). */
    shortenerSecretSealed: text(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('link_settings_shortener_ck', sql`${t.shortener} in ('semel', 'bitly', 'shlink', 'yourls')`)],
);
export type LinkSettings = typeof linkSettings.$inferSelect;

/** A workspace's UTM presets: utm_medium and utm_campaign (utm_source is always the network); one is the default. */
export const utmPresets = pgTable(
  'utm_presets',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    medium: text().notNull().default('social'),
    campaign: text().notNull().default(''),
    isDefault: boolean().notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    unique('utm_presets_workspace_name_uq').on(t.workspaceId, t.name),
    // One default per workspace: setting another one is one statement that unsets the old (db/queries/links.ts).
    uniqueIndex('utm_presets_one_default_uq')
      .on(t.workspaceId)
      .where(sql`${t.isDefault}`),
  ],
);
export type UtmPreset = typeof utmPresets.$inferSelect;

/**
 * One short link: a target URL with its UTM tags, shortened once per workspace. `short_links_workspace_target_utm_uq`
 * is the guard: creating the same (workspace, target URL, UTM) again — a second post, two saves racing — returns this
 * row. `code` is Semel's redirect (`/l/<code>`); an external shortener's link is kept in `short_url`.
 */
export const shortLinks = pgTable(
  'short_links',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    code: text().notNull(),
    targetUrl: text().notNull(),
    /**
     * The network the link was made for (its clicks are that network's), tagged with UTM or not; '' for a link made
     * before untagged links were keyed by network.
     */
    utmSource: text().notNull().default(''),
    /** '' when the link carries no UTM tags (its destination is the target URL as it is); never '' when tagged. */
    utmMedium: text().notNull().default(''),
    utmCampaign: text().notNull().default(''),
    /** Where a click goes: the target URL with the UTM tags. */
    destination: text().notNull(),
    shortener: text({ enum: SHORTENERS }).notNull().default('semel'),
    shortUrl: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('short_links_code_uq').on(t.code),
    unique('short_links_workspace_target_utm_uq').on(
      t.workspaceId,
      t.targetUrl,
      t.utmSource,
      t.utmMedium,
      t.utmCampaign,
    ),
    check('short_links_code_ck', sql`${t.code} ~ '^[A-Za-z0-9_-]{4,64}$'`),
    // Short enough for the unique index (a btree entry holds about 2.7 kB).
    check('short_links_target_ck', sql`length(${t.targetUrl}) <= 2048 and length(${t.destination}) <= 2300`),
  ],
);
export type ShortLink = typeof shortLinks.$inferSelect;

/** Clicks per short link and day (UTC): counted people only (bots by user agent are not), no address or agent kept. */
export const shortLinkClicks = pgTable(
  'short_link_clicks',
  {
    shortLinkId: uuid()
      .notNull()
      .references(() => shortLinks.id, { onDelete: 'cascade' }),
    day: date().notNull(),
    clicks: integer().notNull().default(0),
  },
  (t) => [primaryKey({ name: 'short_link_clicks_pk', columns: [t.shortLinkId, t.day] })],
);

/**
 * The text one delivery publishes once its links are tracked (UTM tags, short links), per (post, account, part):
 * written when the post is saved, read first by `deliveryTextSql` — so the publisher reads it in the statement it
 * already runs. No row: the text as written.
 */
export const postLinkTexts = pgTable(
  'post_link_texts',
  {
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: uuid()
      .notNull()
      .references(() => socialAccounts.id, { onDelete: 'cascade' }),
    part: integer().notNull(),
    text: text().notNull(),
  },
  (t) => [primaryKey({ name: 'post_link_texts_pk', columns: [t.postId, t.accountId, t.part] })],
);

/** Which short links a post's texts use (the post page's clicks). */
export const postShortLinks = pgTable(
  'post_short_links',
  {
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    shortLinkId: uuid()
      .notNull()
      .references(() => shortLinks.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'post_short_links_pk', columns: [t.postId, t.shortLinkId] }),
    index('post_short_links_link_idx').on(t.shortLinkId),
  ],
);

/** What a snippet is for (the composer groups them): hashtag groups, signatures, disclaimers, anything else. */
export const SNIPPET_KINDS = ['hashtags', 'signature', 'disclaimer', 'other'] as const;

/** A workspace's reusable piece of text, inserted from the composer with `/` or the picker (docs/content.md). */
export const snippets = pgTable(
  'snippets',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    kind: text({ enum: SNIPPET_KINDS }).notNull().default('other'),
    text: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('snippets_workspace_name_uq').on(t.workspaceId, t.name),
    check('snippets_kind_ck', sql`${t.kind} in ('hashtags', 'signature', 'disclaimer', 'other')`),
  ],
);
export type Snippet = typeof snippets.$inferSelect;

/**
 * A workspace's post template: text with `{{variables}}`, an optional first comment, default accounts, a time of day
 * (in the workspace's zone) and images. It prefills the composer, and a CSV row's `template` column.
 */
export const postTemplates = pgTable(
  'post_templates',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    text: text().notNull(),
    firstComment: text(),
    accountIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** `HH:MM` in the workspace's zone: the next such time; null: none. */
    timeOfDay: text(),
    mediaIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    createdAt: createdAt(),
  },
  (t) => [
    unique('post_templates_workspace_name_uq').on(t.workspaceId, t.name),
    check('post_templates_time_ck', sql`${t.timeOfDay} is null or ${t.timeOfDay} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
  ],
);
export type PostTemplate = typeof postTemplates.$inferSelect;

/**
 * An evergreen queue (docs/content.md#evergreen-queues): posts that recycle into its accounts' posting slots, one at a
 * time (the next goes once the last one has left `scheduled`), each at most once per cycle, an item not again before
 * `min_gap_days`. Claimed by the evergreen job with a lease (FOR UPDATE SKIP LOCKED, like the outboxes).
 */
export const evergreenQueues = pgTable(
  'evergreen_queues',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    accountIds: uuid().array().notNull(),
    minGapDays: integer().notNull().default(7),
    paused: boolean().notNull().default(false),
    /** The cycle being published: every item once, then the next (advanced by one compare-and-set statement). */
    cycle: integer().notNull().default(1),
    /** Why the last fire could not be made (no free posting slot, an account disconnected), shown on the queue. */
    lastError: text(),
    nextRunAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    leaseExpiresAt: timestamp({ withTimezone: true }),
    generation: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    unique('evergreen_queues_workspace_name_uq').on(t.workspaceId, t.name),
    check('evergreen_queues_gap_ck', sql`${t.minGapDays} between 0 and 365`),
    index('evergreen_queues_due_idx')
      .on(t.nextRunAt)
      .where(sql`not ${t.paused}`),
  ],
);
export type EvergreenQueue = typeof evergreenQueues.$inferSelect;

/** One post of an evergreen queue, in `position` order; `variants` go in turn to networks that refuse identical text. */
export const evergreenItems = pgTable(
  'evergreen_items',
  {
    id: uuid().primaryKey().defaultRandom(),
    queueId: uuid()
      .notNull()
      .references(() => evergreenQueues.id, { onDelete: 'cascade' }),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    text: text().notNull(),
    variants: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** "Skip next": its next turn is passed over (recorded as a skipped fire of that cycle), then it is cleared. */
    skipNext: boolean().notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('evergreen_items_queue_idx').on(t.queueId, t.position)],
);
export type EvergreenItem = typeof evergreenItems.$inferSelect;

/**
 * Each item's turn in a cycle, taken before its post is made: `evergreen_fires_item_cycle_uq` is the guard — two
 * schedulers, a restart or a replayed job can take an item's turn in a cycle once. The post is made with the key
 * `evergreen:<item>:<cycle>` (posts_workspace_idempotency_key_uq) and `post_id` is set in the post's own transaction,
 * so a turn taken by a scheduler that died before making its post is finished by the next pass, never with a second.
 */
export const evergreenFires = pgTable(
  'evergreen_fires',
  {
    id: uuid().primaryKey().defaultRandom(),
    queueId: uuid()
      .notNull()
      .references(() => evergreenQueues.id, { onDelete: 'cascade' }),
    itemId: uuid()
      .notNull()
      .references(() => evergreenItems.id, { onDelete: 'cascade' }),
    cycle: integer().notNull(),
    /** The post made for this turn; null while being made (or `skipped`). */
    postId: uuid().references(() => posts.id, { onDelete: 'set null' }),
    skipped: boolean().notNull().default(false),
    /**
     * Why a skipped turn could not be posted (the item's text too long for a network…): shown on the Evergreen page;
     * null for a "skip next". Editing the item gives that turn back.
     */
    skipReason: text(),
    firedAt: createdAt(),
  },
  (t) => [
    unique('evergreen_fires_item_cycle_uq').on(t.itemId, t.cycle),
    index('evergreen_fires_queue_idx').on(t.queueId, t.cycle),
  ],
);
export type EvergreenFire = typeof evergreenFires.$inferSelect;

/** What a feed's new items become: a draft to review, a post of an evergreen queue, or a post at the next free slot. */
export const FEED_MODES = ['draft', 'queue', 'publish'] as const;

/**
 * An RSS, Atom or JSON feed polled into the workspace (docs/content.md#feeds): fetched through the outbound guard with
 * size and time limits and conditional requests (its ETag and Last-Modified kept), claimed by the feeds job with a
 * lease and a generation like the outboxes.
 */
export const feeds = pgTable(
  'feeds',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    url: text().notNull(),
    accountIds: uuid().array().notNull(),
    templateId: uuid().references(() => postTemplates.id, { onDelete: 'set null' }),
    mode: text({ enum: FEED_MODES }).notNull().default('draft'),
    /** The evergreen queue its items join (mode `queue`). */
    evergreenQueueId: uuid().references(() => evergreenQueues.id, { onDelete: 'set null' }),
    pollMinutes: integer().notNull().default(60),
    paused: boolean().notNull().default(false),
    etag: text(),
    lastModified: text(),
    lastPolledAt: timestamp({ withTimezone: true }),
    /** Why the last poll failed (unreachable, too large, not a feed), shown on the feed; null after a good one. */
    lastError: text(),
    /** When the feed is polled next (`next_run_at`, as every leased row of lib/jobs: db/queries/leased-rows.ts). */
    nextRunAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    leaseExpiresAt: timestamp({ withTimezone: true }),
    generation: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    unique('feeds_workspace_url_uq').on(t.workspaceId, t.url),
    check('feeds_mode_ck', sql`${t.mode} in ('draft', 'queue', 'publish')`),
    check('feeds_poll_ck', sql`${t.pollMinutes} between 5 and 10080`),
    index('feeds_due_idx')
      .on(t.nextRunAt)
      .where(sql`not ${t.paused}`),
  ],
);
export type Feed = typeof feeds.$inferSelect;

/**
 * One item a feed published, taken once: by its GUID, its link and its content, each normalised (scheme, `www.`,
 * the host's case, a trailing slash and tracking parameters dropped) and each unique per feed — so a feed that re-orders,
 * re-publishes or tweaks its GUIDs creates nothing twice. Taken before its post is made; the post's key is
 * `feed:<item id>` and `post_id` is set in the post's own transaction, so a poll that stopped in between is finished
 * by the next one, never with a second post.
 */
export const feedItems = pgTable(
  'feed_items',
  {
    id: uuid().primaryKey().defaultRandom(),
    feedId: uuid()
      .notNull()
      .references(() => feeds.id, { onDelete: 'cascade' }),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    guidKey: text(),
    linkKey: text(),
    /** Null for an item without words (no title, no summary): only its GUID and link can say it was seen. */
    contentHash: text(),
    title: text().notNull(),
    link: text(),
    /** The entry's summary (its template's `{{summary}}`), kept for an item made later than it was read. */
    summary: text(),
    postId: uuid().references(() => posts.id, { onDelete: 'set null' }),
    evergreenItemId: uuid(),
    /** Why its post could not be made (the text too long for a network…); it is not tried again unless retried. */
    error: text(),
    /**
     * Why its post could not be made yet, for a reason that passes (an account disconnected, no free posting slot, the
     * link shortener not answering): it stays unfinished and is tried again from `retry_at`, later after each refusal.
     */
    waitingReason: text(),
    retryAt: timestamp({ withTimezone: true }),
    retries: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    unique('feed_items_guid_uq').on(t.feedId, t.guidKey),
    unique('feed_items_link_uq').on(t.feedId, t.linkKey),
    unique('feed_items_content_uq').on(t.feedId, t.contentHash),
    index('feed_items_feed_created_idx').on(t.feedId, t.createdAt),
  ],
);
export type FeedItem = typeof feedItems.$inferSelect;

/**
 * The read budget (docs/architecture.md#read-budget): one row per platform read that spent an account's rate-limit
 * budget (metrics, the inbox). Counted with the account's attempts against the per-account limit; reads may take only
 * what a reserved share leaves (lib/read-budget), taken under a per-account lock in one statement.
 */
export const platformReads = pgTable(
  'platform_reads',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    accountId: uuid()
      .notNull()
      .references(() => socialAccounts.id, { onDelete: 'cascade' }),
    /** Who read (`metrics`, `followers`, `inbox`…): shown and counted apart, spent from one budget. */
    purpose: text().notNull(),
    /** Platform calls this read may make (a batch of ids in one call is one). */
    calls: integer().notNull(),
    takenAt: createdAt(),
  },
  (t) => [
    index('platform_reads_account_taken_idx').on(t.accountId, t.takenAt),
    check('platform_reads_calls_ck', sql`${t.calls} >= 1`),
  ],
);
export type PlatformRead = typeof platformReads.$inferSelect;

const metricColumns = () => ({
  views: bigint({ mode: 'number' }),
  likes: bigint({ mode: 'number' }),
  reposts: bigint({ mode: 'number' }),
  replies: bigint({ mode: 'number' }),
  quotes: bigint({ mode: 'number' }),
  saves: bigint({ mode: 'number' }),
  clicks: bigint({ mode: 'number' }),
});

/**
 * One sent delivery's metrics (docs/analytics.md): its read schedule (the readings at PUBLISHED + each of
 * ANALYTICS_READ_DELAYS_MS), the claim of the metrics job (generation, lease), and the latest reading's values, which
 * the analytics page aggregates (one row per post and account, however many readings it has). Written only by the
 * metrics job's statements (db/queries/post-metrics.ts), never by the publisher: a row appears when its first
 * reading falls due.
 */
export const postMetrics = pgTable(
  'post_metrics',
  {
    deliveryId: uuid()
      .primaryKey()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    postId: uuid()
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    accountId: uuid()
      .notNull()
      .references(() => socialAccounts.id, { onDelete: 'cascade' }),
    provider: providerEnum().notNull(),
    /**
     * The delivery's part: 0 is the post itself; a first comment or a thread's later part is > 0. The analytics page
     * counts only part 0 as posts, and sums every part's metrics (docs/analytics.md#the-analytics-page).
     */
    part: integer().notNull().default(0),
    /** When the call that made the post started (its attempt), else when the delivery was confirmed sent. */
    publishedAt: timestamp({ withTimezone: true }).notNull(),
    /** The next reading (an index into the configured delays); past the last one, nothing is due. */
    nextReading: integer().notNull().default(0),
    /** When the next reading falls due; null: no more readings (done, deleted, or not readable). */
    nextDueAt: timestamp({ withTimezone: true }),
    generation: integer().notNull().default(0),
    workerId: text(),
    leaseExpiresAt: timestamp({ withTimezone: true }),
    /** Why reading stopped: `done` (every reading taken), `deleted` (gone from the platform), `unsupported`. */
    stoppedReason: text({ enum: ['done', 'deleted', 'unsupported'] }),
    stoppedAt: timestamp({ withTimezone: true }),
    /** The latest reading (null until the first one). */
    readAt: timestamp({ withTimezone: true }),
    ...metricColumns(),
    /** The latest reading's engagement: the sum of the interactions the network gives (null before any reading). */
    engagement: bigint({ mode: 'number' }),
    /** Unreadable readings in a row (the network failed to answer); reset by a reading. */
    failures: integer().notNull().default(0),
    /**
     * When a read first left the post out (Bluesky's AppView omits a post it cannot show: deleted, taken down, or not
     * indexed yet): it is marked deleted only if a read a delay later misses it too. Cleared by a reading.
     */
    missedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // The analytics page: one workspace's posts published in a period (an index range, whatever the table holds).
    index('post_metrics_workspace_published_idx').on(t.workspaceId, t.publishedAt),
    // The metrics job's claim: due readings only.
    index('post_metrics_due_idx')
      .on(t.nextDueAt)
      .where(sql`${t.nextDueAt} is not null`),
    check('post_metrics_stopped_reason_ck', sql`${t.stoppedReason} in ('done', 'deleted', 'unsupported')`),
  ],
);
export type PostMetricsRow = typeof postMetrics.$inferSelect;

/**
 * A reading of one delivery's public metrics, append-only: one row per delivery and reading time
 * (`metric_snapshots_delivery_reading_uq`), so a re-run or a racing job never doubles a point. Null: the network does
 * not give that metric (docs/analytics.md#metrics).
 */
export const metricSnapshots = pgTable(
  'metric_snapshots',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    deliveryId: uuid()
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    /** Which configured reading (0: the first delay after publishing). */
    reading: integer().notNull(),
    /** When it was due (published + its delay): the point it stands for. */
    readingAt: timestamp({ withTimezone: true }).notNull(),
    /** When it was read. */
    takenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    ...metricColumns(),
  },
  (t) => [unique('metric_snapshots_delivery_reading_uq').on(t.deliveryId, t.readingAt)],
);
export type MetricSnapshot = typeof metricSnapshots.$inferSelect;

/** One account's follower-count reads: its daily schedule and the metrics job's claim (generation, lease). */
export const accountMetrics = pgTable(
  'account_metrics',
  {
    accountId: uuid()
      .primaryKey()
      .references(() => socialAccounts.id, { onDelete: 'cascade' }),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    nextDueAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    generation: integer().notNull().default(0),
    workerId: text(),
    leaseExpiresAt: timestamp({ withTimezone: true }),
    /** The network gives no follower count to this account's token (read no more). */
    unsupported: boolean().notNull().default(false),
  },
  (t) => [index('account_metrics_due_idx').on(t.nextDueAt)],
);

/** An account's follower count, one row per account and UTC day (`follower_snapshots_pk`), append-only. */
export const followerSnapshots = pgTable(
  'follower_snapshots',
  {
    accountId: uuid()
      .notNull()
      .references(() => socialAccounts.id, { onDelete: 'cascade' }),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    day: text().notNull(),
    followers: bigint({ mode: 'number' }).notNull(),
    takenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'follower_snapshots_pk', columns: [t.accountId, t.day] }),
    index('follower_snapshots_workspace_day_idx').on(t.workspaceId, t.day),
    check('follower_snapshots_day_ck', sql`${t.day} ~ '^\\d{4}-\\d{2}-\\d{2}$'`),
  ],
);
export type FollowerSnapshot = typeof followerSnapshots.$inferSelect;

/** PNG or JPEG bytes, for the report logo: small by check (lib/reports/logo.ts), kept in the row it belongs to. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The client report's settings (Settings → Client report): the workspace's logo on the PDF, and where the monthly
 * report goes (no address: none is sent).
 */
export const clientReportSettings = pgTable(
  'client_report_settings',
  {
    workspaceId: uuid()
      .primaryKey()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The monthly report's recipient (the client); null: no monthly report. */
    toAddress: text(),
    logo: bytea(),
    logoType: text({ enum: ['image/png', 'image/jpeg'] }),
    updatedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    updatedAt: createdAt(),
  },
  (t) => [
    check('client_report_settings_logo_ck', sql`(${t.logo} is null) = (${t.logoType} is null)`),
    check('client_report_settings_logo_size_ck', sql`${t.logo} is null or octet_length(${t.logo}) <= 262144`),
  ],
);

/**
 * One monthly client report sent (or being sent): `client_reports_workspace_period_uq` keeps one per workspace and
 * month, however many jobs run; its email goes through the notifications outbox (notification_sends.client_report_id).
 */
export const clientReports = pgTable(
  'client_reports',
  {
    id: uuid().primaryKey().defaultRandom(),
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The month it covers, YYYY-MM, in the workspace's zone. */
    period: text().notNull(),
    toAddress: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('client_reports_workspace_period_uq').on(t.workspaceId, t.period),
    check('client_reports_period_ck', sql`${t.period} ~ '^\\d{4}-\\d{2}$'`),
  ],
);
export type ClientReport = typeof clientReports.$inferSelect;
