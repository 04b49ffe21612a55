import { getEnv } from '@/lib/env';
import { problem } from '@/lib/http/problem';
import { sniffImageType } from '@/lib/media/sniff';
import { verifyMediaSignature } from '@/lib/media/signed-url';
import { getMediaStorage } from '@/lib/media/storage';

export const dynamic = 'force-dynamic';

/**
 * One stored image at a signed URL that expires (lib/media/signed-url.ts), without a session: Threads fetches
 * images by URL. For a real Threads account this app must be reachable from the internet at NEXTAUTH_URL.
 */
export async function GET(request: Request, context: { params: Promise<{ sha256: string }> }): Promise<Response> {
  const { sha256 } = await context.params;
  const query = new URL(request.url).searchParams;
  const valid =
    /^[0-9a-f]{64}$/.test(sha256) &&
    verifyMediaSignature({
      sha256,
      expires: query.get('expires'),
      sig: query.get('sig'),
      encryptionKey: getEnv().APP_ENCRYPTION_KEY,
    });
  // One answer for a bad signature and a missing file: the URL reveals nothing about what is stored.
  const bytes = valid ? await getMediaStorage().get(sha256) : null;
  const type = bytes && sniffImageType(bytes);
  if (!bytes || !type)
    return problem({ status: 404, title: 'Not Found', detail: 'No such image, or the link expired.' });
  return new Response(Buffer.from(bytes), {
    headers: {
      'content-type': type,
      'content-length': String(bytes.length),
      'cache-control': 'private, max-age=300',
      'x-content-type-options': 'nosniff',
    },
  });
}
