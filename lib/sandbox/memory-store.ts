import { randomUUID } from 'node:crypto';
import { hashSandboxToken } from './tokens';
import { NO_FAULTS, type FaultSettings, type SandboxAccount, type SandboxPost, type SandboxStore } from './types';

/**
 * The sandbox in process memory, for the standalone server without a database (benchmarks, chaos runs).
 * Each method runs without awaiting in between, so its checks and inserts are atomic on the event loop.
 */
export function createMemorySandboxStore(): SandboxStore & { listAccounts(): SandboxAccount[] } {
  const accounts = new Map<string, SandboxAccount & { tokenHash: string }>();
  const posts: SandboxPost[] = [];
  const keys = new Map<string, { postId: string; createdAt: number }>();
  const faults = new Map<string, FaultSettings>();
  let nextId = 1;

  const find = (test: (a: SandboxAccount & { tokenHash: string }) => boolean) => {
    for (const a of accounts.values()) if (test(a)) return strip(a);
    return null;
  };

  return {
    listAccounts: () => [...accounts.values()].map(strip),

    async authenticate(platform, token) {
      const tokenHash = hashSandboxToken(token);
      return find((a) => a.platform === platform && a.tokenHash === tokenHash);
    },

    async getAccount(platform, platformUserId) {
      return find((a) => a.platform === platform && a.platformUserId === platformUserId);
    },

    async getAccountById(id) {
      const account = accounts.get(id);
      return account ? strip(account) : null;
    },

    async registerAccount({ token, ...input }) {
      const existing = find((a) => a.platform === input.platform && a.platformUserId === input.platformUserId);
      if (existing) return existing;
      const account = { id: randomUUID(), displayName: null, ...input, tokenHash: hashSandboxToken(token) };
      accounts.set(account.id, account);
      return strip(account);
    },

    async createPost(input) {
      const accountId = input.account.id;
      const now = Date.now();
      const keyId = input.idempotencyKey ? `${accountId}\u0000${input.idempotencyKey}` : null;
      if (keyId) {
        const held = keys.get(keyId);
        if (held && now - held.createdAt < (input.idempotencyWindowMs ?? 3_600_000)) {
          return { status: 'replayed', post: posts.find((p) => p.id === held.postId)! };
        }
      }
      if (input.duplicateWindowMs) {
        const since = now - input.duplicateWindowMs;
        const duplicate = posts.some((p) => p.accountId === accountId && p.kind !== 'dm' && p.text === input.text && p.createdAt.getTime() >= since);
        if (duplicate) return { status: 'duplicate' };
      }
      const post: SandboxPost = {
        id: String(nextId++), accountId, kind: input.kind, text: input.text, inReplyToId: input.inReplyToId ?? null,
        recipientId: input.recipientId ?? null, idempotencyKey: input.idempotencyKey ?? null, createdAt: new Date(now),
      };
      posts.push(post);
      if (keyId) keys.set(keyId, { postId: post.id, createdAt: now });
      return { status: 'created', post };
    },

    async getPost(id) {
      return posts.find((p) => p.id === id) ?? null;
    },

    async listPosts(accountId, query) {
      const maxId = query.maxId ? Number(query.maxId) : Infinity;
      const sinceId = query.sinceId ? Number(query.sinceId) : -Infinity;
      return posts
        .filter((p) => p.accountId === accountId && query.kinds.includes(p.kind) && Number(p.id) < maxId && Number(p.id) > sinceId)
        .filter((p) => (!query.startTime || p.createdAt >= query.startTime) && (!query.endTime || p.createdAt <= query.endTime))
        .sort((a, b) => Number(b.id) - Number(a.id))
        .slice(0, query.limit);
    },

    async countPosts(accountIds) {
      const counts = new Map(accountIds.map((id) => [id, 0]));
      for (const p of posts) if (counts.has(p.accountId)) counts.set(p.accountId, counts.get(p.accountId)! + 1);
      return counts;
    },

    async getFaults(accountId) {
      return faults.get(accountId) ?? NO_FAULTS;
    },

    async setFaults(accountIds, settings) {
      for (const id of accountIds) faults.set(id, { ...settings });
    },
  };
}

function strip({ id, platform, platformUserId, handle, displayName }: SandboxAccount): SandboxAccount {
  return { id, platform, platformUserId, handle, displayName };
}
