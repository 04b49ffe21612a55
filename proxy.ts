import { getToken } from 'next-auth/jwt';
import { NextResponse, type NextRequest } from 'next/server';
import { getEnv } from '@/lib/env';

// Coarse gate only: pages and actions still check the session and role themselves.
const PUBLIC = [/^\/signin/, /^\/signout/, /^\/api\//, /^\/_next\//, /^\/favicon/];

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (PUBLIC.some((p) => p.test(pathname))) return NextResponse.next();
  const token = await getToken({ req: request, secret: getEnv().NEXTAUTH_SECRET });
  if (token) return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = '/signin';
  url.search = `?callbackUrl=${encodeURIComponent(pathname + search)}`;
  return NextResponse.redirect(url);
}

export const config = { matcher: ['/((?!_next/static|_next/image|favicon.ico|.*\\.(?:png|svg|ico)$).*)'] };
