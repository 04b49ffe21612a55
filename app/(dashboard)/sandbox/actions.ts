'use server';

import { z } from 'zod';
import { getDb } from '@/db/client';
import { workspaceAction } from '@/lib/auth/action';
import { getEnv } from '@/lib/env';
import { applyFaults } from '@/sandbox/http/control';
import { publishTestPost, runNaiveRetryDemo, type AttemptSummary, type NaiveRetryDemo } from '@/lib/sandbox/demo';
import { faultsInput } from '@/sandbox/behaviour/faults';
import { PROFILES } from '@/sandbox/behaviour/profiles';
import { createPgSandboxStore } from '@/sandbox/store/pg-store';
import { workspaceSandboxScope } from '@/lib/sandbox/workspace-scope';

const NOT_A_SANDBOX_ACCOUNT = {
  ok: false,
  status: 422,
  message: 'Choose a connected sandbox account of this workspace.',
} as const;

function sandboxOff() {
  return getEnv().sandboxEnabled
    ? null
    : ({ ok: false, status: 409, message: 'The sandbox network is switched off on this server.' } as const);
}

export const updateFaultsAction = workspaceAction(
  {
    name: 'updateSandboxFaults',
    can: 'sandboxControl',
    schema: faultsInput.extend({
      accountId: z
        .union([z.literal(''), z.uuid('Unknown account')])
        .optional()
        .transform((v) => v || undefined),
      // '' = each account's platform default
      profile: z
        .union([z.literal(''), z.enum(PROFILES, 'Choose a profile')])
        .optional()
        .transform((v) => v || undefined),
    }),
  },
  async (input, { workspace }) => {
    const off = sandboxOff();
    if (off) return off;
    const db = getDb();
    const scope = await workspaceSandboxScope(db, {
      workspaceId: workspace.id,
      encryptionKey: getEnv().APP_ENCRYPTION_KEY,
    });
    const applied = await applyFaults(createPgSandboxStore(db), scope, input);
    if (!applied.ok && applied.reason === 'not_found') return NOT_A_SANDBOX_ACCOUNT;
    if (!applied.ok)
      return { ok: false, status: 422, message: applied.message, errors: { profile: [applied.message] } };
    const n = applied.accounts.length;
    return { ok: true, message: `Faults set on ${n} account${n === 1 ? '' : 's'}.` };
  },
);

export const publishTestPostAction = workspaceAction<z.ZodType<{ accountId: string; text: string }>, AttemptSummary>(
  {
    name: 'publishSandboxTestPost',
    can: 'sandboxControl',
    schema: z.object({
      accountId: z.uuid('Choose an account'),
      text: z.string().trim().min(1, 'Write something').max(280, 'At most 280 characters'),
    }),
  },
  async (input, { workspace }) => {
    const off = sandboxOff();
    if (off) return off;
    const attempt = await publishTestPost(getDb(), {
      workspaceId: workspace.id,
      ...input,
      encryptionKey: getEnv().APP_ENCRYPTION_KEY,
    });
    if (!attempt) return NOT_A_SANDBOX_ACCOUNT;
    return { ok: attempt.outcome === 'sent', message: `${attempt.outcome}: ${attempt.reason}`, data: attempt };
  },
);

export const naiveRetryDemoAction = workspaceAction<z.ZodType<{ accountId: string }>, NaiveRetryDemo>(
  {
    name: 'sandboxNaiveRetryDemo',
    can: 'sandboxControl',
    schema: z.object({ accountId: z.uuid('Choose an account') }),
  },
  async (input, { workspace }) => {
    const off = sandboxOff();
    if (off) return off;
    const demo = await runNaiveRetryDemo(getDb(), {
      workspaceId: workspace.id,
      ...input,
      encryptionKey: getEnv().APP_ENCRYPTION_KEY,
    });
    if (!demo) return NOT_A_SANDBOX_ACCOUNT;
    return {
      ok: true,
      message: `${demo.attempts.length} attempt${demo.attempts.length === 1 ? '' : 's'}, ${demo.copies} cop${demo.copies === 1 ? 'y' : 'ies'} on the platform.`,
      data: demo,
    };
  },
);

/** Revokes every token of a sandbox account, as a user revoking the app on the platform: the next call gets 401. */
export const revokeSandboxTokensAction = workspaceAction(
  { name: 'revokeSandboxTokens', can: 'sandboxControl', schema: z.object({ accountId: z.uuid('Choose an account') }) },
  async ({ accountId }, { workspace }) => {
    const off = sandboxOff();
    if (off) return off;
    const db = getDb();
    const scope = await workspaceSandboxScope(db, {
      workspaceId: workspace.id,
      encryptionKey: getEnv().APP_ENCRYPTION_KEY,
    });
    const target = scope.find((s) => s.accountId === accountId);
    if (!target) return NOT_A_SANDBOX_ACCOUNT;
    await createPgSandboxStore(db).oauth.revokeAccount(target.account.id);
    return { ok: true, message: `Revoked every token of ${target.handle}: its next call is refused (401).` };
  },
);
