import NextAuth from 'next-auth';
import { getAuthOptions } from '@/lib/auth/options';

function handler(req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(getAuthOptions())(req, ctx);
}

export { handler as GET, handler as POST };
