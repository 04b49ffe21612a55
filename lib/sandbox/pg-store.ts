import type { Database } from '@/db/client';
import {
  claimSandboxIdempotencyKey, countSandboxPosts, deleteExpiredSandboxIdempotencyKey, findSandboxDuplicate, getSandboxAccountById, getSandboxAccountByTokenHash,
  getSandboxAccountByUserId, getSandboxFaults, getSandboxIdempotencyKeyPost, getSandboxPost, insertSandboxPost, listSandboxPosts,
  lockSandboxAccount, registerSandboxAccount, setSandboxIdempotencyKeyPost, upsertSandboxFaults,
} from '@/db/queries/sandbox';
import type { SandboxPostRow } from '@/db/sandbox-schema';
import { hashSandboxToken } from './tokens';
import { NO_FAULTS, type CreatePostResult, type SandboxPost, type SandboxStore } from './types';

/**
 * The sandbox on Postgres (its own `sandbox` schema). `onUnknownToken` lets the app register product
 * sandbox accounts the sandbox has not seen yet, then the lookup is tried once more.
 */
export function createPgSandboxStore(db: Database, options: { onUnknownToken?: () => Promise<void> } = {}): SandboxStore {
  return {
    async authenticate(platform, token) {
      const tokenHash = hashSandboxToken(token);
      const found = await getSandboxAccountByTokenHash(db, { platform, tokenHash });
      if (found || !options.onUnknownToken) return found;
      await options.onUnknownToken();
      return getSandboxAccountByTokenHash(db, { platform, tokenHash });
    },

    getAccount: (platform, platformUserId) => getSandboxAccountByUserId(db, { platform, platformUserId }),

    getAccountById: (id) => getSandboxAccountById(db, { id }),

    async registerAccount({ token, ...account }) {
      const row = await registerSandboxAccount(db, { ...account, tokenHash: hashSandboxToken(token) });
      if (!row) throw new Error('Sandbox account could not be registered');
      return row;
    },

    createPost(input) {
      const accountId = input.account.id;
      return db.transaction(async (tx): Promise<CreatePostResult> => {
        const key = input.idempotencyKey ?? null;
        if (key) {
          await deleteExpiredSandboxIdempotencyKey(tx, { accountId, key, createdBefore: new Date(Date.now() - (input.idempotencyWindowMs ?? 3_600_000)) });
          // The key row is the guard: a second request with this key waits here for the first one's commit.
          if (!(await claimSandboxIdempotencyKey(tx, { accountId, key }))) {
            const existing = await getSandboxIdempotencyKeyPost(tx, { accountId, key });
            const post = existing?.postId ? await getSandboxPost(tx, { id: existing.postId }) : null;
            if (post) return { status: 'replayed', post: toPost(post) };
            throw new Error('Idempotency key held without a status');
          }
        }
        if (input.duplicateWindowMs) {
          await lockSandboxAccount(tx, { accountId });
          const since = new Date(Date.now() - input.duplicateWindowMs);
          if (await findSandboxDuplicate(tx, { accountId, text: input.text, since })) return { status: 'duplicate' };
        }
        const row = await insertSandboxPost(tx, {
          accountId, kind: input.kind, text: input.text, inReplyToId: input.inReplyToId ?? null, recipientId: input.recipientId ?? null, idempotencyKey: key,
        });
        if (key) await setSandboxIdempotencyKeyPost(tx, { accountId, key, postId: row.id });
        return { status: 'created', post: toPost(row) };
      });
    },

    async getPost(id) {
      if (!/^\d{1,18}$/.test(id)) return null;
      const row = await getSandboxPost(db, { id: Number(id) });
      return row ? toPost(row) : null;
    },

    async listPosts(accountId, query) {
      const rows = await listSandboxPosts(db, {
        accountId,
        kinds: query.kinds,
        startTime: query.startTime,
        endTime: query.endTime,
        maxId: numericId(query.maxId),
        sinceId: numericId(query.sinceId),
        limit: query.limit,
      });
      return rows.map(toPost);
    },

    async countPosts(accountIds) {
      const rows = await countSandboxPosts(db, { accountIds });
      return new Map(rows.map((r) => [r.accountId, r.total]));
    },

    async getFaults(accountId) {
      const row = await getSandboxFaults(db, { accountId });
      if (!row) return NO_FAULTS;
      const { latencyMs, timeoutBeforeCommit, timeoutAfterCommit, errorAfterCommit, resetAfterCommit, rateLimited } = row;
      return { latencyMs, timeoutBeforeCommit, timeoutAfterCommit, errorAfterCommit, resetAfterCommit, rateLimited };
    },

    setFaults: (accountIds, faults) => upsertSandboxFaults(db, { accountIds, faults }),
  };
}

function numericId(id: string | undefined): number | undefined {
  return id !== undefined && /^\d{1,18}$/.test(id) ? Number(id) : undefined;
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
    createdAt: row.createdAt,
  };
}
