import type { DraftMedia } from './draft-parts';

export type UploadOutcome = { ok: true; media: DraftMedia } | { ok: false; error: string };

/**
 * One image to POST /api/app/media (or a request link's upload route) with its own Idempotency-Key (the same on every retry, so it is stored once),
 * through XMLHttpRequest because fetch reports no upload progress. A 409 (the first request with this key is
 * still running) is retried after its Retry-After, a few times.
 */
export async function uploadImage(
  url: string,
  file: File,
  altText: string,
  key: string,
  onProgress: (percent: number) => void,
): Promise<UploadOutcome> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const answer = await send(url, file, altText, key, onProgress);
    if (answer.status === 201) return { ok: true, media: answer.body as DraftMedia };
    if (answer.status === 409) {
      await new Promise((resolve) => setTimeout(resolve, 1000 * Math.max(1, Number(answer.retryAfter) || 1)));
      continue;
    }
    if (answer.status === 0) return { ok: false, error: 'The upload did not reach the server; retry it.' };
    const problem = answer.body as { detail?: string; errors?: Record<string, string[]> } | null;
    const fieldError = problem?.errors ? Object.values(problem.errors).flat()[0] : undefined;
    return { ok: false, error: fieldError ?? problem?.detail ?? `The upload failed (${answer.status}).` };
  }
  return { ok: false, error: 'The server is still storing this image; retry in a moment.' };
}

function send(
  url: string,
  file: File,
  altText: string,
  key: string,
  onProgress: (percent: number) => void,
): Promise<{ status: number; body: unknown; retryAfter: string | null }> {
  return new Promise((resolve) => {
    const form = new FormData();
    form.set('file', file);
    form.set('altText', altText);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Idempotency-Key', key);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body, retryAfter: xhr.getResponseHeader('retry-after') });
    };
    xhr.onerror = () => resolve({ status: 0, body: null, retryAfter: null });
    xhr.send(form);
  });
}
