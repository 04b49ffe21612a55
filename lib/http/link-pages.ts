import { getDb } from '@/db/client';
import { inspectApprovalLink } from '@/lib/approvals/links';
import { inspectRequestLink } from '@/lib/requests/links';

const LINK_PAGE = /^\/(approve|request)\/([^/]+)\/?$/;

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * A client's link page (`/approve/<token>`, `/request/<token>`) for a token that opens nothing, answered by the proxy
 * with its real status — 404 for an unknown or altered link (one answer for both), 410 expired or revoked — since an
 * App Router page cannot set one. Null when the link opens (the page renders it, counting the request).
 */
export async function linkPageProblem(method: string, pathname: string): Promise<Response | null> {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const match = LINK_PAGE.exec(pathname);
  if (!match) return null;
  let token: string;
  try {
    token = decodeURIComponent(match[2]!);
  } catch {
    token = '';
  }
  const check =
    match[1] === 'approve' ? await inspectApprovalLink(getDb(), token) : await inspectRequestLink(getDb(), token);
  if (check.ok) return null;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(check.title)}</title></head>
<body><main><h1>${escape(check.title)}</h1><p>${escape(check.detail)}</p></main></body></html>`;
  return new Response(method === 'HEAD' ? null : html, {
    status: check.status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}
