'use server';

import { z } from 'zod';
import { getDb } from '@/db/client';
import { connectAccount, getAccountWithCredentials } from '@/db/queries/accounts';
import { disconnectAccount } from '@/db/queries/deliveries';
import { workspaceAction } from '@/lib/auth/action';
import { getEnv } from '@/lib/env';
import { logger } from '@/lib/logging/logger';
import { providerClientForAccount } from '@/lib/providers';
import { verifyPlatformAccount } from '@/lib/providers/connect';
import { connectionCheckFailure } from '@/lib/providers/connection-check';
import { baseUrlRefusal } from '@/lib/net/outbound-guard';
import { sealCredentials } from '@/lib/providers/credentials';
import { connectSandboxAccount } from '@/lib/sandbox/connect';

const accountId = z.object({ accountId: z.uuid('Unknown account') });
const httpUrl = (label: string) =>
  z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/, error: `${label} must be a URL like https://example.com` }))
    .superRefine((value, ctx) => {
      const refusal = baseUrlRefusal(value);
      if (refusal) ctx.addIssue({ code: 'custom', message: `${label} ${refusal}` });
    });
const accessToken = z.string().trim().min(8, 'Paste the whole access token').max(2000);

export const connectSandboxAccountAction = workspaceAction(
  { name: 'connectSandboxAccount', can: 'manageAccounts', schema: z.object({ provider: z.enum(['x', 'mastodon']) }) },
  async ({ provider }, { workspace, user }) => {
    const env = getEnv();
    if (!env.sandboxEnabled)
      return {
        ok: false,
        status: 409,
        message: 'The sandbox network is switched off on this server (SANDBOX_ENABLED).',
      };
    const account = await connectSandboxAccount(getDb(), {
      workspaceId: workspace.id,
      provider,
      encryptionKey: env.APP_ENCRYPTION_KEY,
    });
    logger.info(
      { workspaceId: workspace.id, userId: user.id, accountId: account.id, provider },
      'sandbox account connected',
    );
    return { ok: true, message: `Connected sandbox account ${account.handle}.` };
  },
);

export const connectXAccountAction = workspaceAction(
  {
    name: 'connectXAccount',
    can: 'manageAccounts',
    schema: z.object({
      baseUrl: httpUrl('API base URL'),
      accessToken,
      platformUserId: z
        .string()
        .trim()
        .regex(/^\d{1,19}$/, 'The numeric X user id'),
    }),
  },
  async (input, { workspace }) => {
    const check = await verifyPlatformAccount({ provider: 'x', ...input });
    if (!check.ok) return { ok: false, status: 422, message: check.message };
    const account = await connectAccount(
      getDb(),
      {
        workspaceId: workspace.id,
        provider: 'x',
        sandbox: false,
        baseUrl: input.baseUrl.replace(/\/+$/, ''),
        ...check.identity,
      },
      (id) => sealCredentials({ accessToken: input.accessToken }, getEnv().APP_ENCRYPTION_KEY, id),
    );
    return { ok: true, message: `Connected ${account.handle} on X.` };
  },
);

export const connectMastodonAccountAction = workspaceAction(
  {
    name: 'connectMastodonAccount',
    can: 'manageAccounts',
    schema: z.object({ instanceUrl: httpUrl('Instance URL'), accessToken }),
  },
  async ({ instanceUrl, accessToken: token }, { workspace }) => {
    const baseUrl = instanceUrl.replace(/\/+$/, '');
    const check = await verifyPlatformAccount({ provider: 'mastodon', baseUrl, accessToken: token });
    if (!check.ok) return { ok: false, status: 422, message: check.message };
    const account = await connectAccount(
      getDb(),
      {
        workspaceId: workspace.id,
        provider: 'mastodon',
        sandbox: false,
        baseUrl,
        ...check.identity,
      },
      (id) => sealCredentials({ accessToken: token }, getEnv().APP_ENCRYPTION_KEY, id),
    );
    return { ok: true, message: `Connected ${account.handle} on Mastodon.` };
  },
);

/** The connection check for a stored account: the platform's "who am I" with its sealed token. */
export const checkAccountConnectionAction = workspaceAction(
  { name: 'checkAccountConnection', can: 'manageAccounts', schema: accountId },
  async ({ accountId: id }, { workspace }) => {
    const account = await getAccountWithCredentials(getDb(), { workspaceId: workspace.id, accountId: id });
    if (!account) return { ok: false, status: 422, message: 'No such account in this workspace.' };
    if (account.provider === 'bluesky')
      return { ok: false, status: 422, message: 'Bluesky accounts cannot be checked yet.' };
    const client = providerClientForAccount(account, { encryptionKey: getEnv().APP_ENCRYPTION_KEY });
    const me = await client.whoAmI({ timeoutMs: 10_000 });
    if (!me.ok) return { ok: false, message: connectionCheckFailure(me) };
    return { ok: true, message: `Connected as ${me.handle}.` };
  },
);

export const disconnectAccountAction = workspaceAction(
  { name: 'disconnectAccount', can: 'manageAccounts', schema: accountId },
  async ({ accountId: id }, { workspace, user }) => {
    const row = await disconnectAccount(getDb(), {
      workspaceId: workspace.id,
      accountId: id,
      actor: `user:${user.id}`,
    });
    if (!row) return { ok: false, status: 409, message: 'That account is already disconnected.' };
    logger.info({ workspaceId: workspace.id, userId: user.id, accountId: id, held: row.held }, 'account disconnected');
    const held =
      row.held === 0
        ? ''
        : ` ${row.held} scheduled post${row.held === 1 ? ' is' : 's are'} held in Review until you decide.`;
    return {
      ok: true,
      message: `Disconnected: its token is deleted. Its posts and their history stay readable.${held}`,
    };
  },
);
