import { z } from 'zod';
import type { Executor } from '@/db/client';
import { listPosts, listPostsInRange, RANGE_CURSOR_TIME, type PostCursor, type RangeCursor } from '@/db/queries/posts';
import { checkRange, type TimeRange } from './range';
import { listPostsQuerySchema } from './schemas';
import { serializePost, type SerializedPost } from './serialize';

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

// A range page's cursor is tagged, so a cursor of the other order is refused instead of read as a position.
const RANGE_TAG = 'at';
const rangeCursorSchema = z.tuple([z.literal(RANGE_TAG), z.string().regex(RANGE_CURSOR_TIME), z.uuid()]);

function encodeRangeCursor(c: RangeCursor): string {
  return Buffer.from(JSON.stringify([RANGE_TAG, c.scheduledAt, c.id])).toString('base64url');
}

function decodeRangeCursor(value: string): RangeCursor | null {
  try {
    const parsed = rangeCursorSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    return parsed.success ? { scheduledAt: parsed.data[1], id: parsed.data[2] } : null;
  } catch {
    return null;
  }
}

type Page = { data: SerializedPost[]; nextCursor: string | null };

export type ListPostsResult =
  | { kind: 'ok'; page: Page }
  /** A bad query parameter or cursor (nothing was read). */
  | { kind: 'invalid'; errors: Record<string, string[]> }
  /** A bad time range: a half-given range, an unparsable bound, `to` not after `from`, or over 100 days. */
  | { kind: 'invalid_range'; errors: Record<string, string[]> };

const BAD_CURSOR = { cursor: ['Invalid cursor: pass the nextCursor of a previous page unchanged'] };

/**
 * A page of the workspace's posts (keyset pagination; `nextCursor` is null on the last page): newest first,
 * or with `from` and `to` the posts scheduled in `[from, to)` in time order.
 */
export async function listPostPage(
  db: Executor,
  workspaceId: string,
  query: Record<string, string>,
): Promise<ListPostsResult> {
  const range = checkRange(query);
  if (!range.ok) return { kind: 'invalid_range', errors: range.errors };
  const parsed = listPostsQuerySchema.omit({ from: true, to: true }).safeParse(query);
  if (!parsed.success)
    return { kind: 'invalid', errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]> };
  if (range.range) return listRangePage(db, workspaceId, range.range, parsed.data);
  const cursor = parsed.data.cursor !== undefined ? decodeCursor(parsed.data.cursor) : undefined;
  if (cursor === null) return { kind: 'invalid', errors: BAD_CURSOR };
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
      data: page.map((r) => serializePost(r.post, r.deliveries, r.parts, r.partMedia)),
      nextCursor:
        rows.length > parsed.data.limit && last
          ? encodeCursor({ createdAt: last.post.createdAt, id: last.post.id })
          : null,
    },
  };
}

async function listRangePage(
  db: Executor,
  workspaceId: string,
  range: TimeRange,
  query: Omit<z.output<typeof listPostsQuerySchema>, 'from' | 'to'>,
): Promise<ListPostsResult> {
  const after = query.cursor !== undefined ? decodeRangeCursor(query.cursor) : undefined;
  if (after === null) return { kind: 'invalid', errors: BAD_CURSOR };
  const rows = await listPostsInRange(db, {
    workspaceId,
    ...range,
    status: query.status,
    accountId: query.account,
    after,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  return {
    kind: 'ok',
    page: {
      data: page.map((r) => serializePost(r.post, r.deliveries, r.parts, r.partMedia)),
      nextCursor: rows.length > query.limit ? encodeRangeCursor(page.at(-1)!.cursor) : null,
    },
  };
}
