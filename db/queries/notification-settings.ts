import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { notificationPreferences, notificationSends, slackWebhooks } from '../schema';

export type EmailMode = (typeof notificationPreferences.$inferSelect)['emailMode'];

/** The member's email choice for the workspace (no row: `immediately`). */
export async function getEmailMode(db: Executor, params: { workspaceId: string; userId: string }): Promise<EmailMode> {
  const [row] = await db
    .select({ emailMode: notificationPreferences.emailMode })
    .from(notificationPreferences)
    .where(
      and(
        eq(notificationPreferences.workspaceId, params.workspaceId),
        eq(notificationPreferences.userId, params.userId),
      ),
    );
  return row?.emailMode ?? 'immediately';
}

/** The member's choice for new inbox messages in the workspace (no row: `immediately`). */
export async function getInboxMode(db: Executor, params: { workspaceId: string; userId: string }): Promise<EmailMode> {
  const [row] = await db
    .select({ inboxMode: notificationPreferences.inboxMode })
    .from(notificationPreferences)
    .where(
      and(
        eq(notificationPreferences.workspaceId, params.workspaceId),
        eq(notificationPreferences.userId, params.userId),
      ),
    );
  return row?.inboxMode ?? 'immediately';
}

export async function setInboxMode(
  db: Executor,
  params: { workspaceId: string; userId: string; inboxMode: EmailMode },
) {
  await db
    .insert(notificationPreferences)
    .values(params)
    .onConflictDoUpdate({
      target: [notificationPreferences.workspaceId, notificationPreferences.userId],
      set: { inboxMode: params.inboxMode, updatedAt: sql`now()` },
    });
}

export async function setEmailMode(
  db: Executor,
  params: { workspaceId: string; userId: string; emailMode: EmailMode },
) {
  await db
    .insert(notificationPreferences)
    .values(params)
    .onConflictDoUpdate({
      target: [notificationPreferences.workspaceId, notificationPreferences.userId],
      set: { emailMode: params.emailMode, updatedAt: sql`now()` },
    });
}

/** Which Slack webhook is set, by host only: the URL is a secret and never leaves the server. */
export async function getSlackWebhookHost(db: Executor, params: { workspaceId: string }) {
  const [row] = await db
    .select({ host: slackWebhooks.host, createdAt: slackWebhooks.createdAt })
    .from(slackWebhooks)
    .where(eq(slackWebhooks.workspaceId, params.workspaceId));
  return row ?? null;
}

export async function upsertSlackWebhook(
  db: Executor,
  params: { workspaceId: string; urlSealed: string; host: string; createdByUserId: string | null },
) {
  await db
    .insert(slackWebhooks)
    .values(params)
    .onConflictDoUpdate({
      target: slackWebhooks.workspaceId,
      set: { urlSealed: params.urlSealed, host: params.host, createdByUserId: params.createdByUserId },
    });
}

/** Removes the webhook and gives up its unsent messages (they have nowhere to go; retrying them is noise). */
export async function deleteSlackWebhook(db: Executor, params: { workspaceId: string }) {
  await db.transaction(async (tx) => {
    await tx.delete(slackWebhooks).where(eq(slackWebhooks.workspaceId, params.workspaceId));
    await tx
      .update(notificationSends)
      .set({ status: 'failed', lastError: 'The Slack webhook was removed.', leaseExpiresAt: null })
      .where(
        and(
          eq(notificationSends.workspaceId, params.workspaceId),
          eq(notificationSends.channel, 'slack'),
          eq(notificationSends.status, 'pending'),
        ),
      );
  });
}
