import { getDb } from '@/db/client';
import { followShortLink } from '@/lib/links/redirect';

export const dynamic = 'force-dynamic';

/** A short link (docs/content.md#short-links-and-utm): 302 to its destination, the click counted once per request. */
async function follow(request: Request, { params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  const found = await followShortLink(getDb(), {
    code,
    userAgent: request.headers.get('user-agent'),
    method: request.method,
  });
  if (!found.found)
    return new Response('This short link does not exist.', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  // Never cached: each visit must reach this route to be counted (and a link's destination never changes anyway).
  return new Response(null, {
    status: 302,
    headers: { location: found.destination, 'cache-control': 'private, no-store', 'referrer-policy': 'no-referrer' },
  });
}

export const GET = follow;
export const HEAD = follow;
