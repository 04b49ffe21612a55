import { MAX_IMAGE_BYTES } from './image';

/** Room for the multipart framing and the alt text around a 5 MB file. */
const MAX_BODY_BYTES = MAX_IMAGE_BYTES + 64 * 1024;

export type ReadUpload =
  | { ok: true; file: Uint8Array | null; altText: string | undefined }
  | { ok: false; status: 400 | 413 | 415; detail: string };

/**
 * The `multipart/form-data` body of an upload: `file` (the image) and `altText`. A body announced larger than
 * 5 MB plus framing is refused before it is read (413); a file part's name and declared type are ignored,
 * since the bytes decide (lib/media/image.ts).
 */
export async function readUpload(request: Request): Promise<ReadUpload> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type))
    return { ok: false, status: 415, detail: 'Send multipart/form-data with a `file` part and an `altText` part.' };
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > MAX_BODY_BYTES) return { ok: false, status: 413, detail: 'The image is larger than 5 MB.' };
  // A chunked body announces no length: it is read up to the limit, never further (no unbounded buffering).
  const body = await readCapped(request, MAX_BODY_BYTES);
  if (!body) return { ok: false, status: 413, detail: 'The image is larger than 5 MB.' };
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    return { ok: false, status: 400, detail: 'The body is not valid multipart/form-data.' };
  }
  const file = form.get('file');
  const altText = form.get('altText');
  if (altText !== null && typeof altText !== 'string')
    return { ok: false, status: 400, detail: '`altText` must be a text part, not a file.' };
  if (file !== null && typeof file === 'string')
    return { ok: false, status: 400, detail: '`file` must be a file part (the image bytes).' };
  if (file && file.size > MAX_BODY_BYTES) return { ok: false, status: 413, detail: 'The image is larger than 5 MB.' };
  return { ok: true, file: file ? new Uint8Array(await file.arrayBuffer()) : null, altText: altText ?? undefined };
}

/** The body's bytes, or null once more than `limit` arrived (the rest is not read). */
export async function readCapped(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
