import { eq } from 'drizzle-orm';
import type { Executor } from '@/db/client';
import { sandboxMedia } from '@/sandbox/db/schema';

// Uploads to the sandbox network (sandbox/http/media.ts): rows of its own schema, never joined to product tables.

/** Null when the id is taken (a snowflake collision: the caller draws a new one). */
export async function insertSandboxMedia(db: Executor, params: typeof sandboxMedia.$inferInsert) {
  const [row] = await db
    .insert(sandboxMedia)
    .values(params)
    .onConflictDoNothing({ target: sandboxMedia.id })
    .returning();
  return row ?? null;
}

export async function getSandboxMedia(db: Executor, params: { id: bigint }) {
  const [row] = await db.select().from(sandboxMedia).where(eq(sandboxMedia.id, params.id));
  return row ?? null;
}

export async function updateSandboxMedia(
  db: Executor,
  params: {
    id: bigint;
    patch: Partial<Pick<typeof sandboxMedia.$inferInsert, 'altText' | 'type' | 'sha256' | 'size' | 'uploaded'>>;
  },
) {
  if (Object.keys(params.patch).length === 0) return getSandboxMedia(db, { id: params.id });
  const [row] = await db.update(sandboxMedia).set(params.patch).where(eq(sandboxMedia.id, params.id)).returning();
  return row ?? null;
}
