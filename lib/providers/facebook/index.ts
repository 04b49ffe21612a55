import { z } from 'zod';
import type { ProviderDefinition } from '../definition';
import { FACEBOOK_RULES } from './classifier';
import { createFacebookClient } from './client';
import { facebookMeta } from './meta';
import { exchangeFacebookToken } from './tokens';

export const facebookProvider = {
  ...facebookMeta,
  // Facebook documents no posting quota for pages, only call throttling (Business Use Case limits, read from
  // X-Business-Use-Case-Usage when it answers 32/80001); the account's own limit keeps a page well below spam checks.
  rateLimit: { max: 100, windowSeconds: 86_400 },
  // Page tokens come from Facebook Login only: an admin never pastes one.
  connectSchema: z.object({}),
  verify: async () => ({
    ok: false,
    message: 'Facebook Pages connect through “Connect with Facebook” (OAuth); pasted tokens are not accepted.',
  }),
  createClient: createFacebookClient,
  rules: FACEBOOK_RULES,
  // A video's kept upload session is the evidence (readBack); any other post, the page's published posts.
  reconcile: 'evidence',
  // 506: Facebook refused a post as a duplicate of a recent one — a copy may be there: never released on absence.
  isDuplicateEvidence: (c) => c.rule === 'facebook-duplicate-post',
  oauth: {
    authorizeUrl: 'https://www.facebook.com/v23.0/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/v23.0/oauth/access_token',
    // pages_manage_posts publishes, pages_read_engagement reads the page's posts back, pages_show_list lists the
    // pages (GET /me/accounts), publish_video uploads videos, pages_read_user_content and pages_manage_engagement
    // read and answer comments (the webhooks' comment events).
    scopes: [
      'pages_show_list',
      'pages_read_engagement',
      'pages_manage_posts',
      'publish_video',
      'pages_read_user_content',
      'pages_manage_engagement',
    ],
    clientIdEnv: 'FACEBOOK_APP_ID',
    clientSecretEnv: 'FACEBOOK_APP_SECRET',
    apiBaseUrl: 'https://graph.facebook.com',
    // Facebook's token endpoint takes the app secret as a parameter, not HTTP Basic.
    clientParams: { id: 'client_id', secretInBody: true },
    longLivedExchange: exchangeFacebookToken,
  },
  // Page tokens derived from a long-lived user token do not expire.
  refresh: null,
} satisfies ProviderDefinition;
