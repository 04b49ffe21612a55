import type { SandboxOAuthCode, SandboxOAuthStore, SandboxOAuthToken } from './types';

/**
 * The sandbox OAuth server's storage in memory. Every method checks and writes without awaiting in between,
 * so each is atomic on the event loop. `replaceAccountToken` swaps the account's own bearer token (revoke).
 */
export function createMemorySandboxOAuthStore(replaceAccountToken: (accountId: string) => void) {
  const codes = new Map<string, SandboxOAuthCode & { usedAt: Date | null }>();
  const tokens = new Map<string, SandboxOAuthToken>();

  const store: SandboxOAuthStore & { accessAccountId(tokenHash: string): string | null } = {
    /** The account of a live access token (for `authenticate`). */
    accessAccountId(tokenHash) {
      const token = tokens.get(tokenHash);
      const live = token?.kind === 'access' && !token.revokedAt && (token.expiresAt?.getTime() ?? 0) > Date.now();
      return live ? token.accountId : null;
    },

    async saveCode(codeHash, code) {
      codes.set(codeHash, { ...code, usedAt: null });
    },

    async redeemCode(codeHash) {
      const code = codes.get(codeHash);
      if (!code) return null;
      const { usedAt, ...issued } = code;
      if (usedAt) return { status: 'reused', code: issued };
      code.usedAt = new Date();
      return { status: 'first', code: issued };
    },

    async issueTokens(issued) {
      for (const t of issued) tokens.set(t.tokenHash, { ...t, usedAt: null, revokedAt: null });
    },

    async spendRefreshToken(tokenHash) {
      const token = tokens.get(tokenHash);
      if (!token || token.kind !== 'refresh') return null;
      if (token.revokedAt) return { status: 'revoked', token: { ...token } };
      if (token.usedAt) return { status: 'spent', token: { ...token } };
      token.usedAt = new Date();
      return { status: 'first', token: { ...token } };
    },

    async revokeFamily(familyId) {
      const now = new Date();
      for (const t of tokens.values()) if (t.familyId === familyId && !t.revokedAt) t.revokedAt = now;
    },

    async revokeAccount(accountId) {
      const now = new Date();
      let live = 0;
      for (const t of tokens.values()) {
        if (t.accountId !== accountId || t.revokedAt) continue;
        t.revokedAt = now;
        live++;
      }
      replaceAccountToken(accountId);
      return live;
    },
  };
  return store;
}
