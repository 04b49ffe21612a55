import { Readable } from 'node:stream';
import type { ByteRange, MediaStorage } from './media-storage';

/**
 * The one Range a request asks for, within `size`: `bytes=a-b`, `bytes=a-` or the last n bytes `bytes=-n`. Null for
 * no Range (or several: answered whole, as RFC 9110 allows); 'unsatisfiable' for a range past the end.
 */
export function requestedRange(header: string | null, size: number): ByteRange | null | 'unsatisfiable' {
  const match = header && /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start >= size || end < start ? 'unsatisfiable' : { start, end };
}

/**
 * Stored bytes as a response, streamed from the storage (a 1 GB video is never in memory), with Range support: a
 * platform pulling a video by URL (Instagram, TikTok, Facebook) and a browser's player both ask for ranges. Null
 * when the storage has no such bytes.
 */
export async function serveStored(
  request: Request,
  storage: MediaStorage,
  sha256: string,
  headers: { type: string; cacheControl: string },
): Promise<Response | null> {
  const size = await storage.size(sha256);
  if (size === null) return null;
  const common = {
    'content-type': headers.type,
    'cache-control': headers.cacheControl,
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
  };
  const range = requestedRange(request.headers.get('range'), size);
  if (range === 'unsatisfiable')
    return new Response(null, { status: 416, headers: { ...common, 'content-range': `bytes */${size}` } });
  const opened = await storage.open(sha256, range ?? undefined);
  if (!opened) return null;
  const length = range ? range.end - range.start + 1 : size;
  const body = request.method === 'HEAD' ? null : (Readable.toWeb(opened.body) as ReadableStream<Uint8Array>);
  if (!body) opened.body.destroy();
  return new Response(body, {
    status: range ? 206 : 200,
    headers: {
      ...common,
      'content-length': String(length),
      ...(range ? { 'content-range': `bytes ${range.start}-${range.end}/${size}` } : {}),
    },
  });
}
