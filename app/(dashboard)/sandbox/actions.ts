'use server';

import { z } from 'zod';
import { getDb } from '@/db/client';
import { workspaceAction } from '@/lib/auth/action';
import { getEnv } from '@/lib/env';
import { applyWorkspaceFaults, revokeWorkspaceSandboxTokens, sandboxFaultsForm } from '@/lib/sandbox/controls';
import { publishTestPost, runNaiveRetryDemo, type AttemptSummary, type NaiveRetryDemo } from '@/lib/sandbox/demo';

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
    schema: sandboxFaultsForm,
  },
  async (input, { workspace }) => {
    const off = sandboxOff();
    if (off) return off;
    const applied = await applyWorkspaceFaults(getDb(), {
      workspaceId: workspace.id,
      encryptionKey: getEnv().APP_ENCRYPTION_KEY,
      input,
    });
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
    const target = await revokeWorkspaceSandboxTokens(getDb(), {
      workspaceId: workspace.id,
      encryptionKey: getEnv().APP_ENCRYPTION_KEY,
      accountId,
    });
    if (!target) return NOT_A_SANDBOX_ACCOUNT;
    return { ok: true, message: `Revoked every token of ${target.handle}: its next call is refused (401).` };
  },
);
