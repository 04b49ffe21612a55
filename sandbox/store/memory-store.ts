import { randomUUID } from 'node:crypto';
import { createMemorySandboxOAuthStore } from './memory-oauth-store';
import { newPostId, parsePostId } from './post-ids';
import { resolveProfile } from '@/sandbox/behaviour/profiles';
import { containerRefusal } from '@/sandbox/dialects/threads/containers';
import { chunkFits, newTiktokPublishId, tiktokPostOf } from '@/sandbox/dialects/tiktok/publishes';
import { chunkFits as youtubeChunkFits, newYoutubeUploadId, youtubeVideoOf } from '@/sandbox/dialects/youtube/uploads';
import { hashSandboxToken, newSandboxIdentity } from '@/sandbox/oauth/tokens';
import {
  NO_FAULTS,
  type FaultSettings,
  type SandboxContainer,
  type SandboxTiktokPublish,
  type SandboxYoutubeUpload,
  type SandboxMedia,
  type NewSandboxPost,
  type PostQuery,
  type SandboxAccount,
  type SandboxPost,
  type SandboxStore,
} from './types';

/**
 * The sandbox in process memory, for the standalone server without a database (benchmarks, chaos runs).
 * Each method runs without awaiting in between, so its checks and writes are atomic on the event loop;
 * the platform rules on top are the same code as on Postgres (profiles.ts).
 */
export function createMemorySandboxStore(): SandboxStore & { listAccounts(): SandboxAccount[] } {
  const accounts = new Map<string, SandboxAccount & { tokenHash: string }>();
  const byToken = new Map<string, string>();
  const byUser = new Map<string, string>();
  const posts = new Map<string, SandboxPost>();
  /** Per account, ids in creation order (ids are time-ordered, so this is id order too). */
  const timelines = new Map<string, SandboxPost[]>();
  /** Duplicate rules: posts and replies by (account, text), deleted ones kept (LinkedIn counts them), so a check never scans every post. */
  const byText = new Map<string, Set<SandboxPost>>();
  const keys = new Map<string, { postId: string; setAt: number }>();
  /** Bluesky: the live post under each (account, record key), as a repo path holds one record. */
  const byRecordKey = new Map<string, SandboxPost>();
  const locks = new Map<string, { token: string; expiresAt: number }>();
  const faults = new Map<string, FaultSettings>();
  const containers = new Map<string, SandboxContainer>();
  const tiktokPublishes = new Map<string, SandboxTiktokPublish>();
  const youtubeUploads = new Map<string, SandboxYoutubeUpload>();
  const youtubeQuota = new Map<string, number>();
  const media = new Map<string, SandboxMedia>();
  /** Inbound posts by generator key, and per addressed account in id order (sandbox/behaviour/inbound.ts). */
  const inboundByKey = new Map<string, SandboxPost>();
  const inboundTo = new Map<string, SandboxPost[]>();

  const strip = (a: SandboxAccount | undefined): SandboxAccount | null =>
    a
      ? {
          id: a.id,
          platform: a.platform,
          platformUserId: a.platformUserId,
          handle: a.handle,
          displayName: a.displayName,
        }
      : null;
  const textKey = (accountId: string, text: string) => `${accountId}\u0000${text}`;
  const oauth = createMemorySandboxOAuthStore((accountId) => {
    const account = accounts.get(accountId);
    if (!account) return;
    byToken.delete(account.tokenHash);
    account.tokenHash = hashSandboxToken(newSandboxIdentity().token);
    byToken.set(account.tokenHash, account.id);
  });

  function insert(input: NewSandboxPost): SandboxPost {
    const createdAt = input.createdAt ?? new Date();
    let id = newPostId(createdAt);
    while (posts.has(id)) id = newPostId(createdAt);
    const post: SandboxPost = {
      id,
      accountId: input.account.id,
      kind: input.kind,
      text: input.text,
      inReplyToId: input.inReplyToId ?? null,
      recipientId: input.recipientId ?? null,
      idempotencyKey: input.idempotencyKey ?? null,
      recordKey: input.recordKey ?? null,
      record: input.record ?? null,
      createdAt,
      deletedAt: null,
      media: input.media ?? [],
    };
    posts.set(id, post);
    if (post.recordKey) byRecordKey.set(textKey(post.accountId, post.recordKey), post);
    const timeline = timelines.get(post.accountId) ?? [];
    timelines.set(post.accountId, timeline);
    // Ids order by time; within one millisecond the random low bits decide, so insert in place.
    let at = timeline.length;
    while (at > 0 && BigInt(timeline[at - 1]!.id) > BigInt(id)) at--;
    timeline.splice(at, 0, post);
    if (post.kind !== 'dm') {
      const k = textKey(post.accountId, post.text);
      byText.set(k, (byText.get(k) ?? new Set()).add(post));
    }
    return post;
  }

  /** Bluesky's listRecords: live keyed posts by record key, newest key first (keys compare bytewise). */
  function listByRecordKey(accountId: string, query: PostQuery): SandboxPost[] {
    const before = query.byRecordKey?.before;
    return (timelines.get(accountId) ?? [])
      .filter((p) => p.recordKey && !p.deletedAt && (!before || p.recordKey < before))
      .filter((p) => query.kinds.includes(p.kind) && (!query.createdUpTo || p.createdAt <= query.createdUpTo))
      .sort((a, b) => (a.recordKey! < b.recordKey! ? 1 : -1))
      .slice(0, query.limit);
  }

  return {
    listAccounts: () => [...accounts.values()].map((a) => strip(a)!),

    async authenticate(platform, token) {
      const tokenHash = hashSandboxToken(token);
      const account = accounts.get(byToken.get(tokenHash) ?? oauth.accessAccountId(tokenHash) ?? '');
      return account?.platform === platform ? strip(account) : null;
    },

    oauth,

    async getAccount(platform, platformUserId) {
      return strip(accounts.get(byUser.get(`${platform}:${platformUserId}`) ?? ''));
    },

    async getAccountById(id) {
      return strip(accounts.get(id));
    },

    async getAccountByHandle(platform, handle) {
      const wanted = handle.replace(/^@/, '').toLowerCase();
      const found = [...accounts.values()].find(
        (a) => a.platform === platform && a.handle.replace(/^@/, '').toLowerCase() === wanted,
      );
      return strip(found);
    },

    async getTokenHash(id) {
      return accounts.get(id)?.tokenHash ?? null;
    },

    async registerAccount({ token, ...input }) {
      const existing = accounts.get(byUser.get(`${input.platform}:${input.platformUserId}`) ?? '');
      if (existing) return strip(existing)!;
      const account = { id: randomUUID(), displayName: null, ...input, tokenHash: hashSandboxToken(token) };
      accounts.set(account.id, account);
      byToken.set(account.tokenHash, account.id);
      byUser.set(`${account.platform}:${account.platformUserId}`, account.id);
      return strip(account)!;
    },

    async insertPost({ refuseDuplicateSince, duplicatesIncludeDeleted, ...input }) {
      if (input.recordKey && byRecordKey.has(textKey(input.account.id, input.recordKey))) return null;
      if (refuseDuplicateSince) {
        const same = byText.get(textKey(input.account.id, input.text));
        for (const p of same ?? [])
          if (p.createdAt >= refuseDuplicateSince && (duplicatesIncludeDeleted || !p.deletedAt)) return null;
      }
      return insert(input);
    },

    async findDuplicatePost({ accountId, text, since, includeDeleted }) {
      let newest: SandboxPost | null = null;
      for (const p of byText.get(textKey(accountId, text)) ?? [])
        if (p.createdAt >= since && (includeDeleted || !p.deletedAt) && (!newest || BigInt(p.id) > BigInt(newest.id)))
          newest = p;
      return newest;
    },

    async createPost(input) {
      return { status: 'created', post: insert(input) };
    },

    async getIdempotentPostId(accountId, key, setSince) {
      const held = keys.get(`${accountId}\u0000${key}`);
      return held && held.setAt >= setSince.getTime() ? held.postId : null;
    },

    async setIdempotentPostId(accountId, key, postId) {
      keys.set(`${accountId}\u0000${key}`, { postId, setAt: Date.now() });
    },

    async tryLock(name, ttlMs) {
      const now = Date.now();
      const held = locks.get(name);
      if (held && held.expiresAt > now) return null;
      const token = randomUUID();
      locks.set(name, { token, expiresAt: now + ttlMs });
      return token;
    },

    async unlock(name, token) {
      if (locks.get(name)?.token === token) locks.delete(name);
    },

    async getPost(id) {
      const post = posts.get(id);
      return post && !post.deletedAt ? post : null;
    },

    async getPostByRecordKey(accountId, recordKey) {
      return byRecordKey.get(textKey(accountId, recordKey)) ?? null;
    },

    async listPosts(accountId, query) {
      if (query.byRecordKey) return listByRecordKey(accountId, query);
      const maxId = parsePostId(query.maxId);
      const sinceId = parsePostId(query.sinceId);
      const timeline = timelines.get(accountId) ?? [];
      const found: SandboxPost[] = [];
      for (let i = timeline.length - 1; i >= 0 && found.length < query.limit; i--) {
        const p = timeline[i]!;
        const id = BigInt(p.id);
        if (sinceId !== null && id <= sinceId) break;
        if (maxId !== null && id >= maxId) continue;
        if ((p.deletedAt && !query.includeDeleted) || !query.kinds.includes(p.kind)) continue;
        if ((query.createdUpTo && p.createdAt > query.createdUpTo) || (query.endTime && p.createdAt > query.endTime))
          continue;
        if (query.startTime && p.createdAt < query.startTime) break;
        found.push(p);
      }
      return found;
    },

    async listAllPosts(accountId) {
      return [...(timelines.get(accountId) ?? [])];
    },

    async listReplies(postId, query) {
      const maxId = parsePostId(query.maxId);
      return [...timelines.values()]
        .flat()
        .filter((p) => p.inReplyToId === postId && !p.deletedAt)
        .filter(
          (p) => (maxId === null || BigInt(p.id) < maxId) && !(query.createdUpTo && p.createdAt > query.createdUpTo),
        )
        .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
        .slice(0, query.limit);
    },

    async insertInbound(input) {
      const stored = inboundByKey.get(input.inboundKey);
      if (stored) return stored;
      const post = insert(input);
      inboundByKey.set(input.inboundKey, post);
      const list = inboundTo.get(input.addressedTo) ?? [];
      inboundTo.set(input.addressedTo, list);
      let at = list.length;
      while (at > 0 && BigInt(list[at - 1]!.id) > BigInt(post.id)) at--;
      list.splice(at, 0, post);
      return post;
    },

    async listInbound(accountId, query) {
      const sinceId = parsePostId(query.sinceId);
      const maxId = parsePostId(query.maxId);
      const out: SandboxPost[] = [];
      const list = inboundTo.get(accountId) ?? [];
      for (let i = list.length - 1; i >= 0 && out.length < query.limit; i--) {
        const p = list[i]!;
        const id = BigInt(p.id);
        if (sinceId !== null && id <= sinceId) break;
        if (p.deletedAt || !query.kinds.includes(p.kind) || (maxId !== null && id >= maxId)) continue;
        if (
          (query.startTime && p.createdAt < query.startTime) ||
          (query.createdUpTo && p.createdAt > query.createdUpTo)
        )
          continue;
        out.push(p);
      }
      return out;
    },

    async deletePost(accountId, id) {
      const post = posts.get(id);
      if (!post || post.accountId !== accountId) return { status: 'not_found' };
      if (post.deletedAt) return { status: 'already_deleted', post };
      post.deletedAt = new Date();
      if (post.recordKey) byRecordKey.delete(textKey(post.accountId, post.recordKey));
      return { status: 'deleted', post };
    },

    async countPosts(accountIds) {
      return new Map(accountIds.map((id) => [id, (timelines.get(id) ?? []).filter((p) => !p.deletedAt).length]));
    },

    async createMedia(input) {
      const createdAt = new Date();
      let id = newPostId(createdAt);
      while (media.has(id)) id = newPostId(createdAt);
      const row: SandboxMedia = { ...input, id, createdAt };
      media.set(id, row);
      return { ...row };
    },

    async getMedia(id) {
      const row = media.get(id);
      return row ? { ...row } : null;
    },

    async updateMedia(id, patch) {
      const row = media.get(id);
      if (!row) return null;
      Object.assign(row, Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)));
      return { ...row };
    },

    async createContainer(input) {
      const createdAt = new Date();
      let id = newPostId(createdAt);
      while (containers.has(id) || posts.has(id)) id = newPostId(createdAt);
      const container: SandboxContainer = { ...input, id, createdAt, postId: null, publishedAt: null };
      containers.set(id, container);
      return { ...container };
    },

    async getContainer(id) {
      const container = containers.get(id);
      return container ? { ...container } : null;
    },

    async publishContainer({ account, containerId, ttlMs, republish, quota }) {
      // No await in between: the checks, the quota count and both writes are one step on the event loop.
      const container = containers.get(containerId);
      if (!container || container.accountId !== account.id)
        return { status: 'refused', reason: 'missing', container: null };
      const now = new Date();
      const refusal = containerRefusal(container, now, { ttlMs, republish });
      if (refusal) return { status: 'refused', reason: refusal, container: { ...container } };
      const since = now.getTime() - quota.windowMs;
      const timeline = timelines.get(account.id) ?? [];
      let used = 0;
      for (let i = timeline.length - 1; i >= 0 && timeline[i]!.createdAt.getTime() >= since; i--)
        if (timeline[i]!.kind === container.kind) used++;
      if (used >= quota.max) return { status: 'refused', reason: 'quota', container: { ...container } };
      const post = insert({
        account,
        kind: container.kind,
        text: container.text,
        inReplyToId: container.inReplyToId,
        media: container.media,
        // An Instagram Story is no feed post: the media listing leaves it out.
        ...(container.mediaType === 'STORIES' ? { record: { media_product_type: 'STORY' } } : {}),
      });
      container.postId = post.id;
      container.publishedAt = post.createdAt;
      return { status: 'published', post, container: { ...container } };
    },

    async createTiktokPublish(input) {
      let id = newTiktokPublishId();
      while (tiktokPublishes.has(id)) id = newTiktokPublishId();
      const publish: SandboxTiktokPublish = {
        ...input,
        id,
        uploadedBytes: 0,
        media: [],
        createdAt: new Date(),
        readyAt: null,
        failReason: null,
        postId: null,
      };
      tiktokPublishes.set(id, publish);
      return { ...publish };
    },

    async getTiktokPublish(id) {
      const publish = tiktokPublishes.get(id);
      return publish ? { ...publish } : null;
    },

    async countTiktokPublishes({ accountId, mode, since }) {
      let n = 0;
      for (const p of tiktokPublishes.values())
        if (p.accountId === accountId && p.mode === mode && p.createdAt >= since) n++;
      return n;
    },

    async takeTiktokChunk({ id, first, length, media: video }) {
      // No await in between: the check and the write are one step on the event loop.
      const publish = tiktokPublishes.get(id);
      if (!publish || !chunkFits(publish, first, length)) return null;
      publish.uploadedBytes += length;
      if (video) publish.media = video;
      return { ...publish };
    },

    async finishTiktokPublish({ id, account, readyAt, media: video, failReason, text }) {
      const publish = tiktokPublishes.get(id);
      if (!publish || publish.accountId !== account.id || publish.readyAt || publish.failReason) return null;
      publish.readyAt = readyAt;
      publish.media = video;
      if (failReason) publish.failReason = failReason;
      else {
        const title = text ?? publish.title;
        publish.postId = insert({ account, ...tiktokPostOf({ ...publish, title, media: video }, readyAt) }).id;
      }
      return { ...publish };
    },

    async createYoutubeUpload(input) {
      let id = newYoutubeUploadId();
      while (youtubeUploads.has(id)) id = newYoutubeUploadId();
      const upload: SandboxYoutubeUpload = {
        ...input,
        id,
        uploadedBytes: 0,
        media: [],
        createdAt: new Date(),
        completedAt: null,
        readyAt: null,
        failReason: null,
        postId: null,
        thumbnailSha256: null,
      };
      youtubeUploads.set(id, upload);
      return { ...upload };
    },

    async getYoutubeUpload(id) {
      const upload = youtubeUploads.get(id);
      return upload ? { ...upload } : null;
    },

    async listYoutubeUploads(accountId) {
      return [...youtubeUploads.values()].filter((u) => u.accountId === accountId).map((u) => ({ ...u }));
    },

    async takeYoutubeChunk({ id, first, length, media: video }) {
      // No await in between: the check and the write are one step on the event loop.
      const upload = youtubeUploads.get(id);
      if (!upload || !youtubeChunkFits(upload, first, length)) return null;
      upload.uploadedBytes += length;
      if (video) upload.media = video;
      return { ...upload };
    },

    async completeYoutubeUpload({ id, account, readyAt, failReason }) {
      const upload = youtubeUploads.get(id);
      if (!upload || upload.accountId !== account.id || upload.completedAt || upload.failReason) return null;
      if (upload.uploadedBytes !== upload.declaredBytes) return null;
      upload.completedAt = new Date();
      upload.readyAt = readyAt;
      if (failReason) upload.failReason = failReason;
      else upload.postId = insert({ account, ...youtubeVideoOf(upload) }).id;
      return { ...upload };
    },

    async setYoutubeThumbnail({ accountId, videoId, sha256 }) {
      for (const upload of youtubeUploads.values())
        if (upload.accountId === accountId && upload.postId === videoId) {
          upload.thumbnailSha256 = sha256;
          return true;
        }
      return false;
    },

    async spendYoutubeQuota({ project, day, units, limit }) {
      const key = `${project}|${day}`;
      const used = youtubeQuota.get(key) ?? 0;
      if (used + units > limit) return false;
      youtubeQuota.set(key, used + units);
      return true;
    },

    async youtubeQuotaUsed({ project, day }) {
      return youtubeQuota.get(`${project}|${day}`) ?? 0;
    },

    async getFaults(accountId) {
      return (
        faults.get(accountId) ?? {
          ...NO_FAULTS,
          profile: resolveProfile(accounts.get(accountId)?.platform ?? 'x', undefined),
        }
      );
    },

    async setFaults(accountIds, { profile, ...settings }) {
      // Resolve every profile first: a mismatch throws before anything changes.
      const resolved = accountIds
        .filter((id) => accounts.has(id))
        .map((id) => [id, resolveProfile(accounts.get(id)!.platform, profile)] as const);
      for (const [id, p] of resolved) faults.set(id, { ...settings, profile: p });
    },
  };
}
