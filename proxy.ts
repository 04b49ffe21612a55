import { getToken } from 'next-auth/jwt';
import { NextResponse, type NextRequest } from 'next/server';
import { getEnv } from '@/lib/env';
import { REQUEST_ID_HEADER, requestIdOf } from '@/lib/http/request-id';

// Coarse gate only: pages and actions still check the session and role themselves.
const PUBLIC = [/^\/signin/, /^\/signout/, /^\/api\//, /^\/_next\//, /^\/favicon/];

export async function proxy(request: NextRequest) {
  // One id per request, given to the handler (and through it to logs and the delivery's history) and echoed back.
  const requestId = requestIdOf(request.headers);
  const headers = new Headers(request.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  const response = await route(request, headers);
  response.headers.set(REQUEST_ID_HEADER, requestId);
  return response;
}

async function route(request: NextRequest, headers: Headers) {
  const { pathname, search } = request.nextUrl;
  if (PUBLIC.some((p) => p.test(pathname))) return NextResponse.next({ request: { headers } });
  const token = await getToken({ req: request, secret: getEnv().NEXTAUTH_SECRET });
  if (token) return NextResponse.next({ request: { headers } });
  const url = request.nextUrl.clone();
  url.pathname = '/signin';
  url.search = `?callbackUrl=${encodeURIComponent(pathname + search)}`;
  return NextResponse.redirect(url);
}

export const config = { matcher: ['/((?!_next/static|_next/image|favicon.ico|.*\\.(?:png|svg|ico)$).*)'] };
