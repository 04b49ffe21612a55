import { z } from 'zod';
import { oauthRefresh } from '@/lib/oauth/refresh';
import type { OAuthConfig, ProviderDefinition } from '../definition';
import { TIKTOK_RULES } from './classifier';
import { createTiktokClient } from './client';
import { tiktokMeta } from './meta';

// developers.tiktok.com/doc/oauth-user-access-token-management: access tokens last 24 h, refresh tokens 365 days
// (rotated on refresh); the client is `client_key`, its secret in the form body.
const TIKTOK_OAUTH: OAuthConfig = {
  authorizeUrl: 'https://www.tiktok.com/v2/auth/authorize/',
  tokenUrl: 'https://open.tiktokapis.com/v2/oauth/token/',
  // user.info.basic: who the token is (user/info); user.info.stats: its follower count (analytics); video.publish:
  // direct post; video.upload: the inbox; video.list: the public videos that settle a lost init, and their metrics.
  scopes: ['user.info.basic', 'user.info.stats', 'video.publish', 'video.upload', 'video.list'],
  clientIdEnv: 'TIKTOK_CLIENT_KEY',
  clientSecretEnv: 'TIKTOK_CLIENT_SECRET',
  apiBaseUrl: 'https://open.tiktokapis.com',
  clientParams: { id: 'client_key', secretInBody: true },
};

export const tiktokProvider = {
  ...tiktokMeta,
  // "About 15 posts a day per creator" (the Direct Post cap, shared by every app); init itself takes 6 requests a
  // minute per token, which the 429 row (tiktok-rate-limited) holds back.
  rateLimit: { max: 15, windowSeconds: 86_400 },
  connectSchema: z.object({}),
  verify: async () => ({
    ok: false,
    message: 'TikTok accounts connect through “Connect with TikTok” (OAuth); pasted credentials are not accepted.',
  }),
  createClient: createTiktokClient,
  rules: TIKTOK_RULES,
  // The publish_id kept on the delivery is the evidence (readBack); without one, only a public post can be listed.
  reconcile: 'evidence',
  // An init whose answer was lost may still become a post at any time: not finding it is no proof of absence.
  isDuplicateEvidence: (c) => c.rule === 'tiktok-init-unknown',
  oauth: TIKTOK_OAUTH,
  refresh: oauthRefresh(TIKTOK_OAUTH),
} satisfies ProviderDefinition;
