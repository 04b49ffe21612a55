import { z } from 'zod';
import type { Executor } from '@/db/client';
import { listPosts, type PostCursor } from '@/db/queries/posts';
import { deliveryStatusEnum } from '@/db/schema';
import { serializePost, type SerializedPost } from './serialize';

const LIMIT_MESSAGE = 'limit must be a whole number from 1 to 100';

export const listPostsQuerySchema = z.object({
  status: z.enum(deliveryStatusEnum.enumValues).optional(),
  account: z.uuid().optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(100, LIMIT_MESSAGE)
    .default(25),
});

function encodeCursor(c: PostCursor): string {
  return Buffer.from(JSON.stringify([c.createdAt.toISOString(), c.id])).toString('base64url');
}

// Exactly what encodeCursor writes; anything else (another shape, a year Postgres cannot store) is refused
// before it reaches a query, where it would fail as a 500.
const cursorSchema = z.tuple([z.iso.datetime().refine((v) => /^\d{4}-/.test(v)), z.uuid()]);

function decodeCursor(value: string): PostCursor | null {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    return parsed.success ? { createdAt: new Date(parsed.data[0]), id: parsed.data[1] } : null;
  } catch {
    return null;
  }
}

export type ListPostsResult =
  | { kind: 'ok'; page: { data: SerializedPost[]; nextCursor: string | null } }
  /** A bad query parameter or cursor (nothing was read). */
  | { kind: 'invalid'; errors: Record<string, string[]> };

/** A page of the workspace's posts, newest first (keyset pagination; `nextCursor` is null on the last page). */
export async function listPostPage(
  db: Executor,
  workspaceId: string,
  query: Record<string, string>,
): Promise<ListPostsResult> {
  const parsed = listPostsQuerySchema.safeParse(query);
  if (!parsed.success)
    return { kind: 'invalid', errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]> };
  const cursor = parsed.data.cursor !== undefined ? decodeCursor(parsed.data.cursor) : undefined;
  if (cursor === null)
    return {
      kind: 'invalid',
      errors: { cursor: ['Invalid cursor: pass the nextCursor of a previous page unchanged'] },
    };
  const rows = await listPosts(db, {
    workspaceId,
    status: parsed.data.status,
    accountId: parsed.data.account,
    cursor,
    limit: parsed.data.limit + 1,
  });
  const page = rows.slice(0, parsed.data.limit);
  const last = page.at(-1);
  return {
    kind: 'ok',
    page: {
      data: page.map((r) => serializePost(r.post, r.deliveries)),
      nextCursor:
        rows.length > parsed.data.limit && last
          ? encodeCursor({ createdAt: last.post.createdAt, id: last.post.id })
          : null,
    },
  };
}
