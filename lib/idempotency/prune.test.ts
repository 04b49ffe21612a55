import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { idempotencyKeys } from '@/db/schema';
import { makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { pruneExpiredIdempotencyKeys } from './prune';
import { retentionUntil } from './run-idempotent';

const { db } = await createTestDatabase();

describe('idempotency key retention', () => {
  it('keeps keys at least 24 hours, and until the requested time when later', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(retentionUntil(new Date('2026-01-01T01:00:00Z'), now).toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect(retentionUntil(new Date('2026-02-08T00:00:00Z'), now).toISOString()).toBe('2026-02-08T00:00:00.000Z');
  });

  it('prunes only expired keys, in batches', async () => {
    const workspace = await makeWorkspace(db);
    const row = (expiresAt: Date) => ({
      workspaceId: workspace.id,
      operation: 'posts.create',
      key: randomUUID(),
      fingerprint: 'f',
      state: 'completed' as const,
      expiresAt,
    });
    await db
      .insert(idempotencyKeys)
      .values([
        ...Array.from({ length: 25 }, () => row(new Date(Date.now() - 1000))),
        ...Array.from({ length: 3 }, () => row(new Date(Date.now() + 86_400_000))),
      ]);
    expect(await pruneExpiredIdempotencyKeys(db, { batchSize: 10 })).toBe(25);
    const left = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.workspaceId, workspace.id));
    expect(left).toHaveLength(3);
  });
});
