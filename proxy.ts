import { getToken } from 'next-auth/jwt';
import { NextResponse, type NextRequest } from 'next/server';
import { getEnv } from '@/lib/env';
import { linkPageProblem } from '@/lib/http/link-pages';
import { REQUEST_ID_HEADER, requestIdOf } from '@/lib/http/request-id';
import { contentSecurityPolicy, newNonce, securityHeaders } from '@/lib/http/security-headers';

// Coarse gate only: pages and actions still check the session and role themselves.
// robots.txt, the manifest and the icons in public/ must answer crawlers and browsers without a session.
const PUBLIC = [
  /^\/signin/,
  /^\/signout/,
  // The first run and the password links work signed out (the pages and actions check their tokens).
  /^\/setup$/,
  /^\/forgot-password$/,
  /^\/password$/,
  // A client's approval link works without an account: the token is checked by the page and its route.
  /^\/approve\//,
  // So does a client's request link (its form posts its server action to the same path).
  /^\/request\//,
  // An invitation link: the invitee may have no account yet (the page and its action check the token).
  /^\/invite\//,
  // Short links (/l/<code>) are followed by anyone who sees a post.
  /^\/l\//,
  /^\/api\//,
  /^\/_next\//,
  /^\/favicon/,
  /^\/(?:icon\.svg|icon-\d+\.png|apple-icon\.png)$/,
  /^\/robots\.txt$/,
  /^\/manifest\.webmanifest$/,
];

export async function proxy(request: NextRequest) {
  // One id per request, given to the handler (and through it to logs and the delivery's history) and echoed back.
  const requestId = requestIdOf(request.headers);
  const https = request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  const csp = contentSecurityPolicy({ nonce: newNonce(), dev: process.env.NODE_ENV === 'development', https });
  const headers = new Headers(request.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  // Next reads the policy from the request to put the nonce on its own scripts.
  headers.set('Content-Security-Policy', csp);
  const response =
    trailingSlashRedirect(request) ??
    crossSiteAction(request) ??
    (await linkPageProblem(request.method, request.nextUrl.pathname)) ??
    (await gate(request, headers));
  response.headers.set(REQUEST_ID_HEADER, requestId);
  response.headers.set('Content-Security-Policy', csp);
  for (const [name, value] of Object.entries(securityHeaders({ https }))) response.headers.set(name, value);
  return response;
}

/**
 * Next's own redirect of `/path/` to `/path` (switched off in next.config.js so that the sandbox's TikTok dialect takes
 * TikTok's slash-ended paths as TikTok does): the same 308 for every path but the sandbox's.
 */
function trailingSlashRedirect(request: NextRequest): NextResponse | null {
  const { pathname } = request.nextUrl;
  if (pathname === '/' || !pathname.endsWith('/') || pathname.startsWith('/api/sandbox/')) return null;
  // A relative Location (RFC 9110 §10.2.2): behind a reverse proxy the request's own URL may name the internal host.
  const location = `${pathname.replace(/\/+$/, '') || '/'}${request.nextUrl.search}`;
  return new NextResponse(null, { status: 308, headers: { location } });
}

/**
 * A server action posted from another site. Next refuses it as well, but answers 500 ("Invalid Server Actions
 * request"): this is the same check (Origin's host against X-Forwarded-Host, else Host; no `serverActions.allowedOrigins`
 * is configured), answered 403 before Next sees it. A POST without Origin passes, as in Next: no browser sends it.
 */
function crossSiteAction(request: NextRequest): NextResponse | null {
  if (request.method !== 'POST' || request.nextUrl.pathname.startsWith('/api/')) return null;
  const origin = request.headers.get('origin');
  if (!origin || (!request.headers.has('next-action') && !isFormPost(request))) return null;
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || request.headers.get('host');
  if (host && originHost(origin) === host) return null;
  return NextResponse.json(
    {
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
      detail: 'A form or action of this app must be sent from it.',
    },
    { status: 403, headers: { 'content-type': 'application/problem+json' } },
  );
}

/** Next also runs a form's action without script (a multipart POST without Next-Action). */
const isFormPost = (request: NextRequest) =>
  /^(?:multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(request.headers.get('content-type') ?? '');

function originHost(origin: string): string | null {
  if (origin === 'null') return 'null';
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

async function gate(request: NextRequest, headers: Headers) {
  const { pathname, search } = request.nextUrl;
  if (PUBLIC.some((p) => p.test(pathname)) || (await getToken({ req: request, secret: getEnv().NEXTAUTH_SECRET }))) {
    return NextResponse.next({ request: { headers } });
  }
  const url = request.nextUrl.clone();
  url.pathname = '/signin';
  url.search = `?callbackUrl=${encodeURIComponent(pathname + search)}`;
  return NextResponse.redirect(url);
}

// Only Next's own build output skips the proxy (next.config.js gives it nosniff): every other answer, an image
// path or a 404 for one included, carries the CSP, X-Frame-Options and nosniff. The tus uploads skip it too: Next
// buffers a request body for the proxy in memory (up to proxyClientMaxBodySize), and a video's PATCH must stream to
// disk; their answers are bodiless tus replies and problem+json.
export const config = { matcher: ['/((?!_next/static/|_next/image|api/v1/uploads(?:/|$)).*)'] };
