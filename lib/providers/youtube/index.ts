import { z } from 'zod';
import { oauthRefresh } from '@/lib/oauth/refresh';
import type { OAuthConfig, ProviderDefinition } from '../definition';
import { YOUTUBE_RULES } from './classifier';
import { createYoutubeClient } from './client';
import { youtubeMeta } from './meta';

// developers.google.com/identity/protocols/oauth2/web-server: authorization code with PKCE; `access_type=offline`
// for a refresh token and `prompt=consent` so a reconnect gets one again (Google sends it on the first consent only).
// Access tokens last an hour; the refresh token is not rotated (the token answer then carries none: the old one stays).
const YOUTUBE_OAUTH: OAuthConfig = {
  authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  // youtube.upload: videos.insert; youtube.readonly: channels.list and the uploads playlist that settle an upload.
  scopes: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.readonly'],
  clientIdEnv: 'GOOGLE_CLIENT_ID',
  clientSecretEnv: 'GOOGLE_CLIENT_SECRET',
  apiBaseUrl: 'https://www.googleapis.com',
  authorizeParams: { access_type: 'offline', prompt: 'consent' },
};

export const youtubeProvider = {
  ...youtubeMeta,
  // The Data API quota: 10,000 units a day per project, 1,600 per videos.insert — six uploads a day. A spent quota
  // (403 quotaExceeded) defers until midnight Pacific Time (youtube-quota-exceeded), never fails.
  rateLimit: { max: 6, windowSeconds: 86_400 },
  connectSchema: z.object({}),
  verify: async () => ({
    ok: false,
    message:
      'YouTube channels connect through “Connect with YouTube” (Google OAuth); pasted credentials are not accepted.',
  }),
  createClient: (account, send) => createYoutubeClient(account, send),
  rules: YOUTUBE_RULES,
  // The kept upload session is the evidence (readBack); after it expired, the channel's uploads playlist.
  reconcile: 'evidence',
  // readBack never answers `absent` for these (it reads the uploads itself): a belt should it ever.
  isDuplicateEvidence: (c) => c.rule === 'youtube-session-gone-after-final',
  oauth: YOUTUBE_OAUTH,
  refresh: oauthRefresh(YOUTUBE_OAUTH),
} satisfies ProviderDefinition;
