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
  let form: FormData;
  try {
    form = await request.formData();
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
