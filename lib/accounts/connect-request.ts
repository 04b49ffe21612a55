import { z } from 'zod';
import { blueskyConnectFields } from '@/lib/providers/bluesky';
import { mastodonConnectFields } from '@/lib/providers/mastodon';
import { xConnectFields } from '@/lib/providers/x';

/** X's own API, where a pasted user token works; the Accounts page offers the same default. */
export const X_API_BASE_URL = 'https://api.x.com';

/**
 * POST /api/v1/accounts: one network's connect fields, named and checked as on the Accounts page (the same
 * field schemas). Unknown fields are refused, so a misspelt secret is a field error rather than ignored.
 */
export const connectAccountRequestSchema = z.discriminatedUnion(
  'provider',
  [
    z.strictObject({ provider: z.literal('mastodon'), ...mastodonConnectFields }),
    z.strictObject({ provider: z.literal('bluesky'), ...blueskyConnectFields }),
    z.strictObject({
      provider: z.literal('x'),
      accessToken: xConnectFields.accessToken,
      baseUrl: xConnectFields.baseUrl.optional(),
      // Optional here: the connection check names the token's user; when given, the token must be that user's.
      platformUserId: xConnectFields.platformUserId.optional(),
    }),
  ],
  {
    error:
      'provider must be "mastodon", "bluesky" or "x" (other networks connect through sign-in on the Accounts page)',
  },
);

export type ConnectAccountRequest = z.output<typeof connectAccountRequestSchema>;

/** The fields as the network's `verify` takes them (the connect form's record), defaults filled in. */
export function connectInput(request: ConnectAccountRequest): Record<string, string> {
  const { provider, ...fields } = request;
  if (provider === 'x') return { ...fields, baseUrl: request.baseUrl ?? X_API_BASE_URL } as Record<string, string>;
  return fields as Record<string, string>;
}
