import { readCapped } from '@/lib/media/read-upload';
import { IMPORT_MAX_BYTES } from './parse';
import type { ImportFile } from './run';

/** Room for the multipart framing and the small text parts around a 5 MB file. */
const MAX_BODY_BYTES = IMPORT_MAX_BYTES + 64 * 1024;
const TOO_LARGE = `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`;

export const UPLOAD_PROBLEM_TITLES = {
  400: 'Bad Request',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
} as const;

export type ReadImportRequest =
  { ok: true; file: ImportFile; fields: FormData } | { ok: false; status: 400 | 413 | 415; detail: string };

/**
 * A `multipart/form-data` body with the CSV in its `file` part (and any small text parts the caller reads from
 * `fields`). A body announced or found larger than 5 MB plus framing is refused before it is read further (413).
 */
export async function readImportRequest(request: Request): Promise<ReadImportRequest> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type))
    return { ok: false, status: 415, detail: 'Send multipart/form-data with the CSV file in a `file` part.' };
  if (Number(request.headers.get('content-length') ?? '0') > MAX_BODY_BYTES)
    return { ok: false, status: 413, detail: TOO_LARGE };
  const body = await readCapped(request, MAX_BODY_BYTES);
  if (!body) return { ok: false, status: 413, detail: TOO_LARGE };
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    return { ok: false, status: 400, detail: 'The body is not valid multipart/form-data.' };
  }
  const file = form.get('file');
  if (file === null || typeof file === 'string')
    return { ok: false, status: 400, detail: 'Send the CSV as a file part named `file`.' };
  const fileName = (file.name || 'import.csv').slice(0, 255);
  return { ok: true, file: { bytes: new Uint8Array(await file.arrayBuffer()), fileName }, fields: form };
}
