import { z } from 'zod';
import type { Database } from '@/db/client';
import { runSetup, setupBanner, setupSchema, slugFromName, issueSetupToken } from './first-run';
import { createPasswordLink } from './password-reset';

export type SetupCliOptions = {
  email?: string;
  workspace?: string;
  name?: string;
  slug?: string;
  timeZone?: string;
};

/**
 * `npm run setup`: without --email, prints a setup token for /setup; with --email and --workspace, sets up headless
 * (no password: it prints a one-time password-set link). Returns the lines to print and the exit code.
 */
export async function setupCommand(
  db: Database,
  options: SetupCliOptions,
  origin: string,
): Promise<{ code: number; out: string[] }> {
  if (!options.email && !options.workspace) {
    const token = await issueSetupToken(db);
    if (!token)
      return { code: 1, out: ['Semel is already set up: sign in, or reset a password from the sign-in page.'] };
    return { code: 0, out: [setupBanner(token, origin)] };
  }
  const parsed = setupSchema.safeParse({
    email: options.email ?? '',
    name: options.name ?? options.email?.split('@')[0] ?? '',
    workspaceName: options.workspace ?? '',
    slug: options.slug ?? slugFromName(options.workspace ?? ''),
    timeZone: options.timeZone ?? 'UTC',
  });
  if (!parsed.success) {
    const errors = z.flattenError(parsed.error).fieldErrors as Record<string, string[]>;
    const flag = {
      email: '--email',
      name: '--name',
      workspaceName: '--workspace',
      slug: '--slug',
      timeZone: '--time-zone',
    };
    return {
      code: 2,
      out: Object.entries(errors).map(
        ([field, messages]) => `${flag[field as keyof typeof flag]}: ${messages.join('; ')}`,
      ),
    };
  }
  const result = await runSetup(db, { ...parsed.data, password: null }, null);
  if (result.kind === 'already_set_up') return { code: 1, out: ['Semel is already set up: nothing was changed.'] };
  if (result.kind !== 'done') return { code: 1, out: [`--slug: "${parsed.data.slug}" is taken.`] };
  const link = await createPasswordLink(db, { userId: result.userId, purpose: 'set', origin });
  return {
    code: 0,
    out: [
      `Set up: admin ${parsed.data.email}, workspace "${parsed.data.workspaceName}" (${result.workspaceSlug}).`,
      `Set the admin's password with this one-time link (valid until ${link.expiresAt.toISOString()}):`,
      link.url,
    ],
  };
}
