'use client';

import { useEffect, useRef, useState } from 'react';
import { DetailedError, Upload } from 'tus-js-client';
import { VIDEO_CHUNK_BYTES } from '@/lib/media/upload-chunk';
import type { DraftMedia } from './draft-parts';

const ACCEPT = 'video/mp4,video/quicktime';

type Props = {
  /** The finished upload's media row (a video, with its facts). */
  onUploaded: (media: DraftMedia) => void;
  onPendingChange: (pending: boolean) => void;
  disabled?: boolean;
};

type State =
  | { status: 'idle' }
  | { status: 'uploading'; name: string; percent: number; retrying: boolean }
  | { status: 'failed'; name: string; error: string };

/** The problem+json `detail` of a refused request, else a sentence about the connection. */
function messageOf(error: Error | DetailedError): string {
  const body = error instanceof DetailedError ? error.originalResponse?.getBody() : undefined;
  try {
    const detail = (JSON.parse(body ?? '') as { detail?: string }).detail;
    if (detail) return detail;
  } catch {
    // not JSON: tus's own plain-text answers, or no answer at all
  }
  return error instanceof DetailedError && error.originalResponse
    ? `The upload was refused (${error.originalResponse.getStatus()}).`
    : 'The connection to the server was lost; pick the same file again to resume where it stopped.';
}

/**
 * One video through tus (resumable): 5 MB chunks, retried after a dropped connection from the offset the server
 * reports; the file's fingerprint is kept in localStorage, so after a reload picking the same file resumes it. The
 * finish answers with the media id; its facts (duration, size, codecs) come from GET /api/v1/uploads/<id>.
 */
export function VideoUpload({ onUploaded, onPendingChange, disabled }: Props) {
  const [state, setState] = useState<State>({ status: 'idle' });
  const upload = useRef<Upload | null>(null);
  const report = useRef(onPendingChange);
  const uploaded = useRef(onUploaded);
  useEffect(() => {
    report.current = onPendingChange;
    uploaded.current = onUploaded;
  }, [onPendingChange, onUploaded]);
  useEffect(() => report.current(state.status === 'uploading'), [state.status]);
  useEffect(() => () => void upload.current?.abort(), []);

  async function start(file: File) {
    const name = file.name;
    setState({ status: 'uploading', name, percent: 0, retrying: false });
    const tus: Upload = new Upload(file, {
      endpoint: '/api/v1/uploads',
      chunkSize: VIDEO_CHUNK_BYTES,
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
      metadata: { filename: name, filetype: file.type || 'video/mp4' },
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) =>
        setState({ status: 'uploading', name, percent: Math.floor((sent / total) * 100), retrying: false }),
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        const retry = status === 0 || status === 409 || status === 423 || status >= 500;
        if (retry) setState((s) => (s.status === 'uploading' ? { ...s, retrying: true } : s));
        return retry;
      },
      onError: (error) => setState({ status: 'failed', name, error: messageOf(error) }),
      onSuccess: () => void finished(tus.url!, name),
    });
    upload.current = tus;
    const previous = await tus.findPreviousUploads();
    if (previous[0]) tus.resumeFromPreviousUpload(previous[0]);
    tus.start();
  }

  async function finished(url: string, name: string) {
    const answer = await fetch(url, { headers: { accept: 'application/json' } }).catch(() => null);
    const body = answer?.ok ? ((await answer.json()) as { media: DraftMedia | null; error: string | null }) : null;
    if (!body?.media) {
      setState({ status: 'failed', name, error: body?.error ?? 'The video was uploaded but could not be read back.' });
      return;
    }
    setState({ status: 'idle' });
    uploaded.current(body.media);
  }

  async function cancel() {
    const current = upload.current;
    upload.current = null;
    setState({ status: 'idle' });
    await current?.abort(true).catch(() => undefined); // the server removes the partial file
  }

  return (
    <div className="mt-2 text-sm">
      {state.status === 'uploading' ? (
        <div className="rounded-md bg-white p-2 ring-1 ring-slate-300">
          <label className="block text-xs font-medium text-slate-900" htmlFor="video-progress">
            Uploading {state.name}
          </label>
          <div className="mt-1 flex items-center gap-3">
            <progress id="video-progress" className="w-full" max={100} value={state.percent} />
            <span aria-live="polite" className="w-24 text-right text-xs text-slate-700">
              {state.percent}%{state.retrying ? ' (resuming…)' : ''}
            </span>
            <button type="button" className="text-xs text-rose-700 underline" onClick={() => void cancel()}>
              Cancel video upload
            </button>
          </div>
        </div>
      ) : (
        <label className="font-medium text-indigo-700">
          Add a video
          <input
            type="file"
            accept={ACCEPT}
            disabled={disabled}
            className="sr-only"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void start(file);
            }}
          />
        </label>
      )}
      {state.status === 'uploading' ? null : (
        <span className="text-slate-600"> — MP4 or MOV (H.264 or HEVC), resumable if the connection drops.</span>
      )}
      {state.status === 'failed' ? (
        <p role="alert" className="mt-1 text-rose-700">
          {state.name}: {state.error}
        </p>
      ) : null}
    </div>
  );
}
