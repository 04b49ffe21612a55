import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookAttempts, webhookEvents, webhookMessages } from '@/db/schema';
import { makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { parseAllowList } from '@/lib/net/outbound-guard';
import { createEndpoint } from './endpoints';
import { emitWebhookEvent } from './emit';
import { pruneOldWebhookEvents, WEBHOOK_RETENTION_DAYS } from './prune';

const { db } = await createTestDatabase();
const encryptionKey = randomBytes(32).toString('base64');
const DAY = 24 * 60 * 60 * 1000;

describe('webhook retention', () => {
  it('deletes settled events past the retention period with their messages and log; pending and recent ones stay', async () => {
    const ws = await makeWorkspace(db);
    const created = await createEndpoint(
      db,
      { workspaceId: ws.id, url: 'http://localhost:9/hooks', events: ['post.approved'], encryptionKey },
      { allow: parseAllowList('localhost') },
    );
    if (created.kind !== 'created') throw new Error(created.message);
    const emit = (subject: string) =>
      emitWebhookEvent(db, { workspaceId: ws.id, type: 'post.approved', subject, data: {} }) as Promise<string>;
    const [oldSettled, oldFailed, oldPending, recent] = [
      await emit('post:a'),
      await emit('post:b'),
      await emit('post:c'),
      await emit('post:d'),
    ];
    const age = (id: string, days: number) =>
      db.execute(sql`update webhook_events set created_at = now() - ${`${days} days`}::interval where id = ${id}`);
    await age(oldSettled, WEBHOOK_RETENTION_DAYS + 1);
    await age(oldFailed, WEBHOOK_RETENTION_DAYS + 5);
    await age(oldPending, WEBHOOK_RETENTION_DAYS + 1); // still being retried: kept until it settles
    await age(recent, WEBHOOK_RETENTION_DAYS - 1);
    const settle = (id: string, status: 'succeeded' | 'failed') =>
      db.update(webhookMessages).set({ status }).where(eq(webhookMessages.eventId, id)).returning();
    const [settled] = await settle(oldSettled, 'succeeded');
    await settle(oldFailed, 'failed');
    await settle(recent, 'succeeded');
    await db.insert(webhookAttempts).values({
      workspaceId: ws.id,
      messageId: settled!.id,
      generation: 1,
      startedAt: new Date(Date.now() - 31 * DAY),
      ok: true,
      statusCode: 200,
      latencyMs: 12,
    });

    // Batches of one: the loop runs until a batch comes back short.
    expect(await pruneOldWebhookEvents(db, { batchSize: 1 })).toBeGreaterThanOrEqual(2);
    const left = await db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(inArray(webhookEvents.id, [oldSettled, oldFailed, oldPending, recent]));
    expect(left.map((e) => e.id).sort()).toEqual([oldPending, recent].sort());
    expect(await db.select().from(webhookMessages).where(eq(webhookMessages.eventId, oldSettled))).toEqual([]);
    expect(await db.select().from(webhookAttempts).where(eq(webhookAttempts.messageId, settled!.id))).toEqual([]);
    expect(await pruneOldWebhookEvents(db)).toBe(0);
  });
});
