import { createHash, randomBytes } from 'node:crypto';
import { TransactionRollbackError } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '@/db/client';
import { insertInstallation, setupOpen, setupTokenExists, storeSetupToken } from '@/db/queries/first-run';
import { canonicalTimeZone } from '@/lib/time/zoned';
import { hashPassword } from './password';
import { checkNewPassword } from './password-policy';
import { violatedConstraint } from '@/db/constraint';

/** SHA-256 of a one-time token: the tokens are 32 random bytes, so no slow hash is needed (like API keys). */
export function hashOneTimeToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newOneTimeToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * While nobody has set up: a new setup token, its hash stored, the token returned to be printed (the server log at
 * start, `npm run setup`). Null once set up. Only whoever can read the log or run commands can claim the install.
 */
export async function issueSetupToken(db: Database): Promise<string | null> {
  if (!(await setupOpen(db))) return null;
  const token = newOneTimeToken();
  await storeSetupToken(db, { tokenHash: hashOneTimeToken(token) });
  return token;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/;

/** A workspace slug from its name: lowercase letters, digits and single hyphens (`Acme Inc.` → `acme-inc`). */
export function slugFromName(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
}

const password = z.string().superRefine((value, ctx) => {
  const problem = checkNewPassword(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const setupSchema = z.object({
  name: z.string().trim().min(1, 'Enter your name').max(200),
  email: z.string().trim().toLowerCase().email('Enter an email address').max(320),
  workspaceName: z.string().trim().min(2, 'At least 2 characters').max(100),
  slug: z.string().trim().toLowerCase().regex(SLUG, 'Lowercase letters, digits and hyphens (up to 48)'),
  timeZone: z
    .string()
    .trim()
    .transform((zone, ctx) => {
      const canonical = canonicalTimeZone(zone);
      if (!canonical) ctx.addIssue({ code: 'custom', message: 'Choose a time zone such as Europe/Berlin' });
      return canonical ?? zone;
    }),
});
export type SetupInput = z.output<typeof setupSchema>;
export const setupFormSchema = setupSchema.extend({ password, setupToken: z.string().trim().max(200) });

export type SetupResult =
  | { kind: 'done'; userId: string; workspaceSlug: string }
  | { kind: 'bad_token' }
  | { kind: 'already_set_up' }
  | { kind: 'slug_taken' };

/**
 * Creates the first admin and workspace in one transaction. `token` is the setup token (the web form); null for
 * `npm run setup`, whose caller already has the database. The installation row's primary key refuses a second
 * setup, also one running at the same moment; a wrong token writes nothing.
 */
export async function runSetup(
  db: Database,
  input: SetupInput & { password: string | null },
  token: string | null,
): Promise<SetupResult> {
  if (token !== null && !(await setupTokenExists(db, { tokenHash: hashOneTimeToken(token) }))) {
    return (await setupOpen(db)) ? { kind: 'bad_token' } : { kind: 'already_set_up' };
  }
  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const created = await insertInstallation(tx, {
        admin: { email: input.email, name: input.name, passwordHash },
        workspace: { name: input.workspaceName, slug: input.slug, timeZone: input.timeZone },
      });
      // A seeded database (users, no installation row): rolled back, nothing written.
      if (!created) tx.rollback();
      return { kind: 'done' as const, userId: created!.user.id, workspaceSlug: created!.workspace.slug };
    });
  } catch (error) {
    if (error instanceof TransactionRollbackError) return { kind: 'already_set_up' };
    const constraint = violatedConstraint(error);
    // The installation exists (another setup won), or users do (a seeded database): either way, set up before.
    if (constraint === 'installation_pkey' || constraint === 'users_email_uq') return { kind: 'already_set_up' };
    if (constraint === 'workspaces_slug_uq') return { kind: 'slug_taken' };
    throw error;
  }
}

/** What the server log and `npm run setup` print while nobody has set up (like Gitea's and n8n's first run). */
export function setupBanner(token: string, origin = 'http://localhost:3000'): string {
  return [
    '',
    '  Semel has no users yet. Create the first admin and workspace at',
    `    ${origin.replace(/\/$/, '')}/setup`,
    '  with this one-time setup token (only its hash is stored; it stops working after setup):',
    `    ${token}`,
    '  Or headless: npm run setup -- --email you@example.com --workspace "Your team"',
    '',
  ].join('\n');
}
