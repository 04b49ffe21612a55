import { z } from 'zod';
import type { Executor } from '@/db/client';
import { listPosts, type PostCursor } from '@/db/queries/posts';
import { deliveryStatusEnum } from '@/db/schema';
import { validationProblem } from '@/lib/api/handler';
import { serializePost } from './serialize';

export const listPostsQuerySchema = z.object({
  status: z.enum(deliveryStatusEnum.enumValues).optional(),
  account: z.uuid().optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

function encodeCursor(c: PostCursor): string {
  return Buffer.from(JSON.stringify([c.createdAt.toISOString(), c.id])).toString('base64url');
}

function decodeCursor(value: string): PostCursor | null {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as [string, string];
    const date = new Date(createdAt);
    return Number.isNaN(date.getTime()) || !z.uuid().safeParse(id).success ? null : { createdAt: date, id };
  } catch {
    return null;
  }
}

/** GET /api/v1/posts: keyset pagination; `nextCursor` is null on the last page. */
export async function listPostsRequest(db: Executor, search: URLSearchParams, workspaceId: string) {
  const parsed = listPostsQuerySchema.safeParse(Object.fromEntries(search));
  if (!parsed.success) return validationProblem(parsed.error);
  const cursor = parsed.data.cursor ? decodeCursor(parsed.data.cursor) : undefined;
  if (cursor === null) return validationProblem(new z.ZodError([{ code: 'custom', path: ['cursor'], message: 'Invalid cursor', input: parsed.data.cursor }]));
  const rows = await listPosts(db, { workspaceId, status: parsed.data.status, accountId: parsed.data.account, cursor, limit: parsed.data.limit + 1 });
  const page = rows.slice(0, parsed.data.limit);
  const last = page.at(-1);
  return {
    data: page.map((r) => serializePost(r.post, r.deliveries)),
    nextCursor: rows.length > parsed.data.limit && last ? encodeCursor({ createdAt: last.post.createdAt, id: last.post.id }) : null,
  };
}
