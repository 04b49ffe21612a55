import { randomUUID } from 'node:crypto';
import type { Database } from '@/db/client';
import {
  countSandboxPosts,
  findSandboxDuplicate,
  getOwnSandboxPost,
  getSandboxAccountByHandle,
  getSandboxAccountById,
  getSandboxAccountByTokenHash,
  getSandboxAccountTokenHash,
  getSandboxAccountByUserId,
  getSandboxFaults,
  getSandboxIdempotencyKeyPost,
  getSandboxPost,
  getSandboxPostByRecordKey,
  insertSandboxPost,
  insertSandboxRecord,
  listAllSandboxPosts,
  listSandboxReplies,
  listSandboxPosts,
  lockSandboxAccount,
  registerSandboxAccount,
  releaseSandboxLock,
  setSandboxIdempotencyKeyPost,
  softDeleteSandboxPost,
  tryTakeSandboxLock,
  upsertSandboxFaults,
} from '@/sandbox/db/queries/store';
import {
  countSandboxPostsSince,
  getSandboxContainer,
  insertSandboxContainer,
  markSandboxContainerPublished,
} from '@/sandbox/db/queries/threads';
import type { Executor } from '@/db/client';
import type {
  SandboxMediaRow,
  SandboxPostRow,
  SandboxThreadsContainerRow,
  SandboxTiktokPublishRow,
} from '@/sandbox/db/schema';
import {
  countSandboxTiktokPublishes,
  endSandboxTiktokPublish,
  getSandboxTiktokPublish,
  insertSandboxTiktokPublish,
  takeSandboxTiktokChunk,
} from '@/sandbox/db/queries/tiktok';
import { newTiktokPublishId, tiktokPostOf } from '@/sandbox/dialects/tiktok/publishes';
import { newYoutubeUploadId, youtubeVideoOf } from '@/sandbox/dialects/youtube/uploads';
import {
  endSandboxYoutubeUpload,
  getSandboxYoutubeQuota,
  getSandboxYoutubeUpload,
  insertSandboxYoutubeUpload,
  listSandboxYoutubeUploads,
  setSandboxYoutubeThumbnail,
  spendSandboxYoutubeQuota,
  takeSandboxYoutubeChunk,
} from '@/sandbox/db/queries/youtube';
import type { SandboxYoutubeUploadRow } from '@/sandbox/db/schema';
import { getSandboxMedia, insertSandboxMedia, updateSandboxMedia } from '@/sandbox/db/queries/media';
import { getSandboxInbound, insertSandboxInbound, listSandboxInbound } from '@/sandbox/db/queries/inbound';
import { getSandboxAccountByAccessToken } from '@/sandbox/db/queries/oauth';
import { createPgSandboxOAuthStore } from './pg-oauth-store';
import { newPostId, parsePostId } from './post-ids';
import { resolveProfile } from '@/sandbox/behaviour/profiles';
import { containerRefusal } from '@/sandbox/dialects/threads/containers';
import { hashSandboxToken } from '@/sandbox/oauth/tokens';
import {
  NO_FAULTS,
  type NewSandboxPost,
  type SandboxContainer,
  type SandboxMedia,
  type SandboxTiktokPublish,
  type SandboxYoutubeUpload,
  type SandboxPost,
  type SandboxStore,
} from './types';

/** The columns of a new post's row every insert writes (a fresh snowflake for `createdAt`). */
function columnsOf(input: NewSandboxPost, createdAt: Date) {
  return {
    id: BigInt(newPostId(createdAt)),
    accountId: input.account.id,
    kind: input.kind,
    text: input.text,
    inReplyToId: input.inReplyToId ?? null,
    recipientId: input.recipientId ?? null,
    record: input.record ?? null,
    createdAt,
  };
}

/**
 * The sandbox on Postgres (its own `sandbox` schema). `onUnknownToken` lets the app register product
 * sandbox accounts the sandbox has not seen yet, then the lookup is tried once more.
 */
export function createPgSandboxStore(
  db: Database,
  options: { onUnknownToken?: () => Promise<void> } = {},
): SandboxStore {
  /** A Bluesky record: null when a live post of the account holds its key. */
  async function insertRecord(input: NewSandboxPost & { recordKey: string }): Promise<SandboxPost | null> {
    for (;;) {
      const createdAt = new Date();
      try {
        const row = await insertSandboxRecord(db, {
          id: BigInt(newPostId(createdAt)),
          accountId: input.account.id,
          kind: input.kind,
          text: input.text,
          inReplyToId: input.inReplyToId ?? null,
          recordKey: input.recordKey,
          record: input.record ?? {},
          media: input.media ?? [],
          createdAt,
        });
        return row ? toPost(row) : null;
      } catch (error) {
        // The same snowflake in the same millisecond (the arbiter is the record key, not the id): draw again.
        const cause = (error as { cause?: { constraint_name?: string } }).cause;
        if (cause?.constraint_name !== 'posts_pkey') throw error;
      }
    }
  }

  async function insert(tx: Executor, input: NewSandboxPost): Promise<SandboxPost> {
    for (;;) {
      const createdAt = input.createdAt ?? new Date();
      const row = await insertSandboxPost(tx, {
        ...columnsOf(input, createdAt),
        idempotencyKey: input.idempotencyKey ?? null,
        media: input.media ?? [],
      });
      if (row) return toPost(row); // else: the same snowflake in the same millisecond; draw again
    }
  }

  return {
    async authenticate(platform, token) {
      const tokenHash = hashSandboxToken(token);
      // An account's own token, or a live access token the OAuth server issued for it (sandbox/oauth/oauth.ts).
      const found =
        (await getSandboxAccountByTokenHash(db, { platform, tokenHash })) ??
        (await getSandboxAccountByAccessToken(db, { platform, tokenHash }));
      if (found || !options.onUnknownToken) return found;
      await options.onUnknownToken();
      return getSandboxAccountByTokenHash(db, { platform, tokenHash });
    },

    oauth: createPgSandboxOAuthStore(db),

    async getAccount(platform, platformUserId) {
      // A Bluesky session names its account (DID) instead of carrying its token: a seeded account not yet
      // registered is registered here, as `authenticate` does for an unknown token.
      const found = await getSandboxAccountByUserId(db, { platform, platformUserId });
      if (found || !options.onUnknownToken) return found;
      await options.onUnknownToken();
      return getSandboxAccountByUserId(db, { platform, platformUserId });
    },

    getAccountById: (id) => getSandboxAccountById(db, { id }),

    getAccountByHandle: (platform, handle) => getSandboxAccountByHandle(db, { platform, handle }),

    getTokenHash: (id) => getSandboxAccountTokenHash(db, { id }),

    async registerAccount({ token, ...account }) {
      const row = await registerSandboxAccount(db, { ...account, tokenHash: hashSandboxToken(token) });
      if (!row) throw new Error('Sandbox account could not be registered');
      return row;
    },

    insertPost({ refuseDuplicateSince, duplicatesIncludeDeleted, ...input }) {
      if (input.recordKey) return insertRecord({ ...input, recordKey: input.recordKey });
      if (!refuseDuplicateSince) return insert(db, input);
      return db.transaction(async (tx) => {
        // One writer per account at a time, so the duplicate check and the insert are one atomic step.
        await lockSandboxAccount(tx, { accountId: input.account.id });
        const duplicate = await findSandboxDuplicate(tx, {
          accountId: input.account.id,
          text: input.text,
          since: refuseDuplicateSince,
          includeDeleted: duplicatesIncludeDeleted,
        });
        return duplicate ? null : insert(tx, input);
      });
    },

    async findDuplicatePost({ accountId, text, since, includeDeleted }) {
      const row = await findSandboxDuplicate(db, { accountId, text, since, includeDeleted });
      return row ? toPost(row) : null;
    },

    async createPost(input) {
      return { status: 'created', post: await insert(db, input) };
    },

    async getIdempotentPostId(accountId, key, setSince) {
      const postId = await getSandboxIdempotencyKeyPost(db, { accountId, key, setSince });
      return postId === null ? null : String(postId);
    },

    async setIdempotentPostId(accountId, key, postId) {
      const id = parsePostId(postId);
      if (id !== null) await setSandboxIdempotencyKeyPost(db, { accountId, key, postId: id });
    },

    tryLock: (name, ttlMs) => tryTakeSandboxLock(db, { name, token: randomUUID(), ttlMs }),

    unlock: (name, token) => releaseSandboxLock(db, { name, token }),

    async getPost(id) {
      const postId = parsePostId(id);
      const row = postId === null ? null : await getSandboxPost(db, { id: postId });
      return row ? toPost(row) : null;
    },

    async getPostByRecordKey(accountId, recordKey) {
      const row = await getSandboxPostByRecordKey(db, { accountId, recordKey });
      return row ? toPost(row) : null;
    },

    async listPosts(accountId, query) {
      const rows = await listSandboxPosts(db, {
        accountId,
        kinds: query.kinds,
        startTime: query.startTime,
        endTime: query.endTime,
        maxId: parsePostId(query.maxId) ?? undefined,
        sinceId: parsePostId(query.sinceId) ?? undefined,
        createdUpTo: query.createdUpTo,
        includeDeleted: query.includeDeleted,
        byRecordKey: query.byRecordKey,
        limit: query.limit,
      });
      return rows.map(toPost);
    },

    async listAllPosts(accountId) {
      return (await listAllSandboxPosts(db, { accountId })).map(toPost);
    },

    async listReplies(postId, query) {
      const rows = await listSandboxReplies(db, {
        postId,
        maxId: parsePostId(query.maxId) ?? undefined,
        createdUpTo: query.createdUpTo,
        limit: query.limit,
      });
      return rows.map(toPost);
    },

    async insertInbound(input) {
      for (let attempt = 0; ; attempt++) {
        const createdAt = input.createdAt ?? new Date();
        const row = await insertSandboxInbound(db, {
          ...columnsOf(input, createdAt),
          recordKey: input.recordKey ?? null,
          addressedTo: input.addressedTo,
          inboundKey: input.inboundKey,
        });
        if (row) return toPost(row);
        const stored = await getSandboxInbound(db, { inboundKey: input.inboundKey });
        if (stored) return toPost(stored);
        // Else the same snowflake in the same millisecond: draw again (a taken record key would never clear).
        if (attempt >= 5) throw new Error(`sandbox: inbound post ${input.inboundKey} could not be stored`);
      }
    },

    async listInbound(accountId, query) {
      const rows = await listSandboxInbound(db, {
        accountId,
        kinds: query.kinds,
        sinceId: parsePostId(query.sinceId) ?? undefined,
        maxId: parsePostId(query.maxId) ?? undefined,
        startTime: query.startTime,
        createdUpTo: query.createdUpTo,
        limit: query.limit,
      });
      return rows.map(toPost);
    },

    async deletePost(accountId, id) {
      const postId = parsePostId(id);
      if (postId === null) return { status: 'not_found' };
      const deleted = await softDeleteSandboxPost(db, { accountId, id: postId });
      if (deleted) return { status: 'deleted', post: toPost(deleted) };
      const own = await getOwnSandboxPost(db, { accountId, id: postId });
      return own ? { status: 'already_deleted', post: toPost(own) } : { status: 'not_found' };
    },

    async countPosts(accountIds) {
      const rows = await countSandboxPosts(db, { accountIds });
      return new Map(rows.map((r) => [r.accountId, r.total]));
    },

    async createMedia(input) {
      for (;;) {
        const createdAt = new Date();
        const row = await insertSandboxMedia(db, { ...input, id: BigInt(newPostId(createdAt)), createdAt });
        if (row) return toMedia(row);
      }
    },

    async getMedia(id) {
      const mediaId = parsePostId(id);
      const row = mediaId === null ? null : await getSandboxMedia(db, { id: mediaId });
      return row ? toMedia(row) : null;
    },

    async updateMedia(id, patch) {
      const mediaId = parsePostId(id);
      const row = mediaId === null ? null : await updateSandboxMedia(db, { id: mediaId, patch });
      return row ? toMedia(row) : null;
    },

    async createContainer(input) {
      for (;;) {
        const createdAt = new Date();
        const row = await insertSandboxContainer(db, { ...input, id: BigInt(newPostId(createdAt)), createdAt });
        if (row) return toContainer(row);
      }
    },

    async getContainer(id) {
      const containerId = parsePostId(id);
      const row = containerId === null ? null : await getSandboxContainer(db, { id: containerId });
      return row ? toContainer(row) : null;
    },

    publishContainer({ account, containerId, ttlMs, republish, quota }) {
      const id = parsePostId(containerId);
      if (id === null) return Promise.resolve({ status: 'refused', reason: 'missing', container: null });
      return db.transaction(async (tx) => {
        // One publisher per account at a time: the checks, the quota count and both writes are one step.
        await lockSandboxAccount(tx, { accountId: account.id });
        const row = await getSandboxContainer(tx, { id });
        if (!row || row.accountId !== account.id) return { status: 'refused', reason: 'missing', container: null };
        const container = toContainer(row);
        const now = new Date();
        const refusal = containerRefusal(container, now, { ttlMs, republish });
        if (refusal) return { status: 'refused', reason: refusal, container };
        const since = new Date(now.getTime() - quota.windowMs);
        if ((await countSandboxPostsSince(tx, { accountId: account.id, kind: container.kind, since })) >= quota.max)
          return { status: 'refused', reason: 'quota', container };
        const post = await insert(tx, {
          account,
          kind: container.kind,
          text: container.text,
          inReplyToId: container.inReplyToId,
          media: container.media,
          // An Instagram Story is no feed post: the media listing leaves it out.
          ...(container.mediaType === 'STORIES' ? { record: { media_product_type: 'STORY' } } : {}),
        });
        const published = await markSandboxContainerPublished(tx, {
          id,
          postId: BigInt(post.id),
          publishedAt: post.createdAt,
        });
        return { status: 'published', post, container: toContainer(published) };
      });
    },

    async createTiktokPublish(input) {
      for (;;) {
        const row = await insertSandboxTiktokPublish(db, { ...input, id: newTiktokPublishId() });
        if (row) return toTiktokPublish(row);
      }
    },

    async getTiktokPublish(id) {
      const row = await getSandboxTiktokPublish(db, { id });
      return row ? toTiktokPublish(row) : null;
    },

    countTiktokPublishes: (input) => countSandboxTiktokPublishes(db, input),

    async takeTiktokChunk(input) {
      const row = await takeSandboxTiktokChunk(db, input);
      return row ? toTiktokPublish(row) : null;
    },

    finishTiktokPublish({ id, account, readyAt, media, failReason, text }) {
      return db.transaction(async (tx) => {
        // Row-locked: of two finishing requests, the second sees the publish ended.
        const row = await getSandboxTiktokPublish(tx, { id, forUpdate: true });
        if (!row || row.accountId !== account.id || row.readyAt || row.failReason) return null;
        const publish = { ...toTiktokPublish(row), media, ...(text !== undefined ? { title: text } : {}) };
        const post = failReason ? null : await insert(tx, { account, ...tiktokPostOf(publish, readyAt) });
        const ended = await endSandboxTiktokPublish(tx, {
          id,
          readyAt,
          media,
          failReason,
          postId: post ? BigInt(post.id) : null,
        });
        return toTiktokPublish(ended);
      });
    },

    async createYoutubeUpload(input) {
      for (;;) {
        const row = await insertSandboxYoutubeUpload(db, { ...input, id: newYoutubeUploadId() });
        if (row) return toYoutubeUpload(row);
      }
    },

    async getYoutubeUpload(id) {
      const row = await getSandboxYoutubeUpload(db, { id });
      return row ? toYoutubeUpload(row) : null;
    },

    async listYoutubeUploads(accountId) {
      return (await listSandboxYoutubeUploads(db, { accountId })).map(toYoutubeUpload);
    },

    async takeYoutubeChunk(input) {
      const row = await takeSandboxYoutubeChunk(db, input);
      return row ? toYoutubeUpload(row) : null;
    },

    completeYoutubeUpload({ id, account, readyAt, failReason }) {
      return db.transaction(async (tx) => {
        // Row-locked: of two completing requests, the second sees the session ended (one video per session).
        const row = await getSandboxYoutubeUpload(tx, { id, forUpdate: true });
        if (!row || row.accountId !== account.id || row.completedAt || row.failReason) return null;
        if (row.uploadedBytes !== row.declaredBytes) return null;
        const post = failReason ? null : await insert(tx, { account, ...youtubeVideoOf(toYoutubeUpload(row)) });
        const ended = await endSandboxYoutubeUpload(tx, {
          id,
          readyAt,
          failReason,
          postId: post ? BigInt(post.id) : null,
        });
        return toYoutubeUpload(ended);
      });
    },

    async setYoutubeThumbnail({ accountId, videoId, sha256 }) {
      if (!/^\d{1,19}$/.test(videoId)) return false;
      return setSandboxYoutubeThumbnail(db, { accountId, videoId: BigInt(videoId), sha256 });
    },

    spendYoutubeQuota: (input) => spendSandboxYoutubeQuota(db, input),

    youtubeQuotaUsed: (input) => getSandboxYoutubeQuota(db, input),

    async getFaults(accountId) {
      const row = await getSandboxFaults(db, { accountId });
      if (!row?.faults) return { ...NO_FAULTS, profile: resolveProfile(row?.platform ?? 'x', undefined) };
      const { accountId: _id, updatedAt: _at, ...faults } = row.faults;
      void _id;
      void _at;
      return faults;
    },

    async setFaults(accountIds, { profile, ...faults }) {
      const rows = [];
      for (const accountId of accountIds) {
        const account = await getSandboxAccountById(db, { id: accountId });
        if (account)
          rows.push({ accountId, faults: { ...faults, profile: resolveProfile(account.platform, profile) } });
      }
      await upsertSandboxFaults(db, { rows });
    },
  };
}

function toPost(row: SandboxPostRow): SandboxPost {
  return {
    id: String(row.id),
    accountId: row.accountId,
    kind: row.kind,
    text: row.text,
    inReplyToId: row.inReplyToId,
    recipientId: row.recipientId,
    idempotencyKey: row.idempotencyKey,
    recordKey: row.recordKey,
    record: row.record,
    createdAt: row.createdAt,
    deletedAt: row.deletedAt,
    media: row.media ?? [],
  };
}

function toMedia(row: SandboxMediaRow): SandboxMedia {
  return {
    id: String(row.id),
    accountId: row.accountId,
    type: row.type,
    altText: row.altText,
    sha256: row.sha256,
    size: row.size,
    readyAt: row.readyAt,
    uploaded: row.uploaded,
    createdAt: row.createdAt,
  };
}

function toContainer(row: SandboxThreadsContainerRow): SandboxContainer {
  return {
    id: String(row.id),
    accountId: row.accountId,
    kind: row.kind === 'reply' ? 'reply' : 'post',
    mediaType: row.mediaType,
    text: row.text,
    imageUrl: row.imageUrl,
    videoUrl: row.videoUrl,
    media: row.media ?? [],
    inReplyToId: row.inReplyToId,
    createdAt: row.createdAt,
    readyAt: row.readyAt,
    errorMessage: row.errorMessage,
    postId: row.postId === null ? null : String(row.postId),
    publishedAt: row.publishedAt,
  };
}

function toTiktokPublish(row: SandboxTiktokPublishRow): SandboxTiktokPublish {
  return {
    id: row.id,
    accountId: row.accountId,
    mode: row.mode,
    source: row.source,
    title: row.title,
    privacyLevel: row.privacyLevel,
    videoUrl: row.videoUrl,
    videoSize: row.videoSize,
    chunkSize: row.chunkSize,
    totalChunkCount: row.totalChunkCount,
    uploadedBytes: row.uploadedBytes,
    media: row.media ?? [],
    createdAt: row.createdAt,
    readyAt: row.readyAt,
    failReason: row.failReason,
    postId: row.postId === null ? null : String(row.postId),
  };
}

function toYoutubeUpload(row: SandboxYoutubeUploadRow): SandboxYoutubeUpload {
  return {
    id: row.id,
    accountId: row.accountId,
    title: row.title,
    description: row.description,
    tags: row.tags ?? [],
    privacyStatus: row.privacyStatus,
    publishAt: row.publishAt,
    contentType: row.contentType,
    declaredBytes: row.declaredBytes,
    uploadedBytes: row.uploadedBytes,
    media: row.media ?? [],
    createdAt: row.createdAt,
    completedAt: row.completedAt,
    readyAt: row.readyAt,
    failReason: row.failReason,
    postId: row.postId === null ? null : String(row.postId),
    thumbnailSha256: row.thumbnailSha256,
  };
}
