import { GET as serveSignedMedia } from '@/app/api/media/[sha256]/route';

/**
 * How a platform that fetches media by URL (Threads, Instagram) reaches the app's signed media route in a test:
 * the route itself answers, in process (the sandbox's `fetchImage`). The route reads MEDIA_DIR and
 * APP_ENCRYPTION_KEY, which the test sets before it starts.
 */
export async function fetchThroughApp(url: string): Promise<Uint8Array | null> {
  const sha256 = /\/api\/media\/([0-9a-f]{64})/.exec(url)?.[1];
  if (!sha256) return null;
  const response = await serveSignedMedia(new Request(url), { params: Promise.resolve({ sha256 }) });
  return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
}

export { storedImage, storedVideo } from './stored-media';
