import type { Database } from '@/db/client';
import {
  getSandboxOAuthCode,
  getSandboxOAuthToken,
  insertSandboxOAuthCode,
  insertSandboxOAuthTokens,
  revokeSandboxAccountTokens,
  revokeSandboxOAuthFamily,
  redeemSandboxOAuthCode,
  spendSandboxRefreshToken,
} from '@/sandbox/db/queries/oauth';
import { hashSandboxToken, newSandboxIdentity } from '@/sandbox/oauth/tokens';
import type { SandboxOAuthCode, SandboxOAuthStore, SandboxOAuthToken } from './types';

/** The sandbox OAuth server's storage on Postgres (schema `sandbox`). */
export function createPgSandboxOAuthStore(db: Database): SandboxOAuthStore {
  return {
    async saveCode(codeHash, code) {
      await insertSandboxOAuthCode(db, { codeHash, ...code });
    },

    async redeemCode(codeHash) {
      const first = await redeemSandboxOAuthCode(db, { codeHash });
      if (first) return { status: 'first', code: toCode(first) };
      const seen = await getSandboxOAuthCode(db, { codeHash });
      return seen ? { status: 'reused', code: toCode(seen) } : null;
    },

    async issueTokens(tokens) {
      await insertSandboxOAuthTokens(db, { rows: tokens });
    },

    async spendRefreshToken(tokenHash) {
      const spent = await spendSandboxRefreshToken(db, { tokenHash });
      if (spent) return { status: 'first', token: toToken(spent) };
      const seen = await getSandboxOAuthToken(db, { tokenHash });
      if (!seen || seen.kind !== 'refresh') return null;
      return { status: seen.revokedAt ? 'revoked' : 'spent', token: toToken(seen) };
    },

    revokeFamily: (familyId) => revokeSandboxOAuthFamily(db, { familyId }),

    revokeAccount: (accountId) =>
      revokeSandboxAccountTokens(db, { accountId, newTokenHash: hashSandboxToken(newSandboxIdentity().token) }),
  };
}

function toCode(row: SandboxOAuthCode & { codeHash: string; usedAt: Date | null }): SandboxOAuthCode {
  return {
    accountId: row.accountId,
    clientId: row.clientId,
    redirectUri: row.redirectUri,
    codeChallenge: row.codeChallenge,
    scope: row.scope,
    familyId: row.familyId,
    expiresAt: row.expiresAt,
  };
}

function toToken(row: SandboxOAuthToken & { createdAt: Date }): SandboxOAuthToken {
  return {
    tokenHash: row.tokenHash,
    kind: row.kind,
    accountId: row.accountId,
    clientId: row.clientId,
    familyId: row.familyId,
    scope: row.scope,
    expiresAt: row.expiresAt,
    usedAt: row.usedAt,
    revokedAt: row.revokedAt,
  };
}
