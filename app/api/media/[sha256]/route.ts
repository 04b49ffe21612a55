import { getEnv } from '@/lib/env';
import { problem } from '@/lib/http/problem';
import { serveStored } from '@/lib/media/serve';
import { sniffMediaType } from '@/lib/media/sniff';
import { verifyMediaSignature } from '@/lib/media/signed-url';
import { getMediaStorage } from '@/lib/media/storage';

export const dynamic = 'force-dynamic';

/**
 * One stored image or video at a signed URL that expires (lib/media/signed-url.ts), without a session: Threads fetches
 * images by URL, Instagram, TikTok and Facebook pull videos by URL (in ranges: 206). For a real Threads account this app must be reachable from the internet at NEXTAUTH_URL.
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
  const type = valid ? await storedType(sha256) : null;
  const served =
    type && (await serveStored(request, getMediaStorage(), sha256, { type, cacheControl: 'private, max-age=300' }));
  return served || problem({ status: 404, title: 'Not Found', detail: 'No such file, or the link expired.' });
}

/** What the stored bytes are, from their first ones (the URL names a hash only; a video's cover is a JPEG). */
async function storedType(sha256: string) {
  const head = await getMediaStorage().open(sha256, { start: 0, end: 15 });
  if (!head) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of head.body) chunks.push(chunk as Buffer);
  return sniffMediaType(new Uint8Array(Buffer.concat(chunks)));
}
