'use server';

import { z } from 'zod';
import { getDb } from '@/db/client';
import { connectAccount, getAccountWithCredentials } from '@/db/queries/accounts';
import { disconnectAccount } from '@/db/queries/deliveries';
import { workspaceAction } from '@/lib/auth/action';
import { getEnv } from '@/lib/env';
import { logger } from '@/lib/logging/logger';
import { providerClientForAccount, providerDefinition, verifyAccount, type ProviderName } from '@/lib/providers';
import { PROVIDER_NAMES } from '@/lib/providers/catalog';
import { connectionCheckFailure } from '@/lib/providers/connection-check';
import { sealCredentials } from '@/lib/providers/credentials';
import { connectSandboxAccount } from '@/lib/sandbox/connect';

const accountId = z.object({ accountId: z.uuid('Unknown account') });
const providerName = z.enum(PROVIDER_NAMES as [ProviderName, ...ProviderName[]], { error: 'Unknown network' });

export const connectSandboxAccountAction = workspaceAction(
  { name: 'connectSandboxAccount', can: 'manageAccounts', schema: z.object({ provider: providerName }) },
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

/**
 * Connects an account with pasted credentials (a token, an app password): the network's own form schema,
 * then its connection check, then the sealed credentials are stored.
 */
export const connectAccountAction = workspaceAction(
  { name: 'connectAccount', can: 'manageAccounts', schema: z.looseObject({ provider: providerName }) },
  async ({ provider, ...fields }, { workspace }) => {
    const definition = providerDefinition(provider);
    if (definition.connect.fields.length === 0)
      return { ok: false, status: 422, message: `${definition.label} accounts connect through sign-in (OAuth).` };
    const parsed = definition.connectSchema.safeParse(fields);
    if (!parsed.success)
      return {
        ok: false,
        status: 422,
        errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]>,
        message: 'Please fix the highlighted fields.',
      };
    const check = await verifyAccount(provider, parsed.data);
    if (!check.ok) return { ok: false, status: 422, message: check.message };
    const account = await connectAccount(
      getDb(),
      { workspaceId: workspace.id, provider, sandbox: false, baseUrl: check.baseUrl, ...check.identity },
      (id) => sealCredentials(check.credentials, getEnv().APP_ENCRYPTION_KEY, id),
    );
    return { ok: true, message: `Connected ${account.handle} on ${definition.label}.` };
  },
);

/** The connection check for a stored account: the platform's "who am I" with its sealed token. */
export const checkAccountConnectionAction = workspaceAction(
  { name: 'checkAccountConnection', can: 'manageAccounts', schema: accountId },
  async ({ accountId: id }, { workspace }) => {
    const account = await getAccountWithCredentials(getDb(), { workspaceId: workspace.id, accountId: id });
    if (!account) return { ok: false, status: 422, message: 'No such account in this workspace.' };
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
