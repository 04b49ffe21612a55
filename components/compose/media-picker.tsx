'use client';

import { useEffect, useRef, useState, type DragEvent } from 'react';
import { FieldError, inputClass } from '@/components/ui/field';
import { MAX_MEDIA_PER_PART, MAX_MEDIA_PER_POST } from '@/db/media-limits';
import { clockDuration } from '@/lib/media/video-limits';
import type { ComposeAccount } from './accounts-picker';
import type { DraftMedia } from './draft-parts';
import { megabytes, networkHints } from './network-hints';
import { uploadImage } from './upload-image';
import { VideoUpload } from './video-upload';

const MAX_IMAGES = { post: MAX_MEDIA_PER_POST, part: MAX_MEDIA_PER_PART } as const;
const MAX_BYTES = 5 * 1024 * 1024;
const ACCEPT = 'image/jpeg,image/png,image/gif,image/webp';

/** An image picked but not uploaded yet: its own Idempotency-Key, made once, so a retried upload stores it once. */
type Pending = {
  localId: string;
  key: string;
  file: File;
  previewUrl: string;
  altText: string;
  status: 'ready' | 'uploading' | 'failed';
  progress: number;
  error?: string;
};

type Props = {
  media: DraftMedia[];
  onChange: (media: DraftMedia[]) => void;
  /** Whether images are still being added (the post waits for them). */
  onPendingChange: (pending: boolean) => void;
  requireAltText: boolean;
  selected: (Pick<ComposeAccount, 'handle' | 'provider'> & { id?: string })[];
  /** Each account's chosen format (`story`), by account id: its video is checked against that format's limits. */
  formats?: Readonly<Record<string, string>>;
  /** A thread's part after the first: a reply, which some networks publish as a comment without media. */
  reply?: boolean;
  error?: string;
  /** The fieldset's legend: `Images`, or `Images of part 2` for a thread part. */
  label?: string;
  /** The field the server names errors by (`mediaIds`, `parts.<i>.mediaIds`): the error element's id. */
  errorId?: string;
  /** Per post or per part, in the notices. */
  unit?: 'post' | 'part';
  /** Where images are uploaded: the composer's route, or a client request link's (`/api/request/<token>/media`). */
  uploadUrl?: string;
  /** An uploaded image's thumbnail; null where the viewer cannot read the workspace's media (a client's form). */
  thumbnailOf?: (mediaId: string) => string | null;
  /** Whether a video may be attached (the composer's resumable uploads; not a client's request form). */
  videos?: boolean;
};

const appThumbnail = (mediaId: string) => `/api/app/media/${mediaId}`;

/**
 * Images of the post: drop them or pick them, describe each (alt text), upload with progress, remove. Uploaded
 * images live in the draft (a reload keeps them); each network's limits are checked here as a hint and again
 * on the server, which decides.
 */
export function MediaPicker({
  media,
  onChange,
  onPendingChange,
  requireAltText,
  selected,
  formats,
  reply = false,
  error,
  label = 'Images',
  errorId = 'mediaIds',
  unit = 'post',
  uploadUrl = '/api/app/media',
  thumbnailOf = appThumbnail,
  videos = false,
}: Props) {
  const [pending, setPending] = useState<Pending[]>([]);
  const [videoPending, setVideoPending] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const [dragging, setDragging] = useState(false);
  // The latest uploaded list, for an upload that finishes after others changed it.
  const mediaRef = useRef(media);
  useEffect(() => {
    mediaRef.current = media;
  }, [media]);

  // Reported through a ref: a parent with several pickers (a thread's parts) passes a new callback each render.
  const report = useRef(onPendingChange);
  // An upload that finishes later hands its image to the latest onChange (a thread part's closes over all parts).
  const changeRef = useRef(onChange);
  useEffect(() => {
    report.current = onPendingChange;
    changeRef.current = onChange;
  }, [onPendingChange, onChange]);
  useEffect(() => report.current(pending.length > 0 || videoPending), [pending.length, videoPending]);
  useEffect(() => () => report.current(false), []); // a removed picker holds nothing up
  const patch = (localId: string, change: Partial<Pending>) =>
    setPending((list) => list.map((p) => (p.localId === localId ? { ...p, ...change } : p)));

  function add(files: FileList | File[]) {
    setNotice(undefined);
    const room = MAX_IMAGES[unit] - media.length - pending.length;
    const chosen = [...files];
    if (chosen.length > room) setNotice(`At most ${MAX_IMAGES[unit]} images per ${unit}.`);
    const added: Pending[] = [];
    for (const file of chosen.slice(0, Math.max(0, room))) {
      if (file.size > MAX_BYTES) {
        setNotice(`${file.name} is ${megabytes(file.size)}: images are at most 5 MB.`);
        continue;
      }
      added.push({
        localId: crypto.randomUUID(),
        key: crypto.randomUUID(),
        file,
        previewUrl: URL.createObjectURL(file),
        altText: '',
        status: 'ready',
        progress: 0,
      });
    }
    setPending((list) => [...list, ...added]);
    if (!requireAltText) for (const p of added) void start(p);
  }

  async function start(item: Pending) {
    if (requireAltText && !item.altText.trim()) {
      patch(item.localId, { error: 'Describe the image first (alt text is required in this workspace).' });
      return;
    }
    patch(item.localId, { status: 'uploading', progress: 0, error: undefined });
    const result = await uploadImage(uploadUrl, item.file, item.altText.trim(), item.key, (progress) =>
      patch(item.localId, { progress }),
    );
    if (!result.ok) {
      patch(item.localId, { status: 'failed', error: result.error });
      return;
    }
    URL.revokeObjectURL(item.previewUrl);
    setPending((list) => list.filter((p) => p.localId !== item.localId));
    if (!mediaRef.current.some((m) => m.id === result.media.id)) {
      mediaRef.current = [...mediaRef.current, result.media];
      changeRef.current(mediaRef.current);
    }
  }

  function removePending(item: Pending) {
    URL.revokeObjectURL(item.previewUrl);
    setPending((list) => list.filter((p) => p.localId !== item.localId));
  }

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length > 0) add(e.dataTransfer.files);
  };

  const hints = networkHints(media, selected, unit, { formats, reply });
  const full = media.length + pending.length >= MAX_IMAGES[unit];

  return (
    <fieldset aria-describedby={`${errorId}-error`}>
      <legend className="text-sm font-medium text-slate-900">{label}</legend>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="media-drop-zone"
        className={`mt-2 rounded-md border-2 border-dashed px-4 py-3 text-sm ${dragging ? 'border-indigo-500 bg-indigo-50' : 'border-slate-300'}`}
      >
        <label className="font-medium text-indigo-700">
          Add images
          <input
            type="file"
            accept={ACCEPT}
            multiple
            disabled={full}
            className="sr-only"
            onChange={(e) => {
              if (e.target.files) add(e.target.files);
              e.target.value = '';
            }}
          />
        </label>{' '}
        <span className="text-slate-600">
          or drop them here — JPEG, PNG, GIF or WebP, up to 5 MB, at most {MAX_IMAGES[unit]}. Location data (EXIF) is
          removed.
        </span>
      </div>
      {videos ? (
        <VideoUpload
          disabled={full}
          onPendingChange={setVideoPending}
          onUploaded={(video) => {
            if (mediaRef.current.some((m) => m.id === video.id)) return;
            mediaRef.current = [...mediaRef.current, video];
            changeRef.current(mediaRef.current);
          }}
        />
      ) : null}
      {notice ? (
        <p role="status" className="mt-1 text-sm text-amber-800">
          {notice}
        </p>
      ) : null}
      <ol className="mt-3 grid gap-3 sm:grid-cols-2" aria-label={`Images of this ${unit}`}>
        {media.map((m, i) => {
          const noun = m.video ? 'Video' : 'Image';
          const thumbnail = thumbnailOf(m.id);
          return (
            <li key={m.id} className="flex gap-3 rounded-md bg-slate-50 p-2 ring-1 ring-slate-200">
              {thumbnail !== null && (
                // eslint-disable-next-line @next/next/no-img-element -- a private, per-workspace image: no optimiser
                <img
                  src={m.video ? `${thumbnail}?cover` : thumbnail}
                  alt={m.video ? `Cover of video ${i + 1}` : m.altText}
                  className="h-16 w-16 rounded object-cover"
                />
              )}
              <div className="min-w-0 flex-1 text-xs text-slate-700">
                <p className="font-medium text-emerald-800">
                  {noun} {i + 1} uploaded
                </p>
                {m.video ? null : <p className="truncate">{m.altText ? `Alt: ${m.altText}` : 'No alt text'}</p>}
                <p className="text-slate-500">{describeMedia(m)}</p>
                <button
                  type="button"
                  className="mt-1 text-rose-700 underline"
                  onClick={() => onChange(media.filter((x) => x.id !== m.id))}
                >
                  Remove {noun.toLowerCase()} {i + 1}
                </button>
              </div>
            </li>
          );
        })}
        {pending.map((p, j) => {
          const n = media.length + j + 1;
          return (
            <li key={p.localId} className="flex gap-3 rounded-md bg-white p-2 ring-1 ring-slate-300">
              {/* eslint-disable-next-line @next/next/no-img-element -- a local preview (blob: URL) */}
              <img src={p.previewUrl} alt="" className="h-16 w-16 rounded object-cover" />
              <div className="min-w-0 flex-1 text-xs">
                <label className="block font-medium text-slate-900" htmlFor={`alt-${p.localId}`}>
                  Alt text for image {n}
                  {requireAltText ? ' (required)' : ''}
                </label>
                <textarea
                  id={`alt-${p.localId}`}
                  rows={2}
                  maxLength={1000}
                  value={p.altText}
                  disabled={p.status === 'uploading'}
                  onChange={(e) => patch(p.localId, { altText: e.target.value })}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' && !e.shiftKey) {
                      e.preventDefault();
                      void start(p);
                    }
                  }}
                  className={inputClass}
                  placeholder="What the image shows, for people who cannot see it"
                />
                {p.status === 'uploading' ? (
                  <progress className="mt-1 w-full" max={100} value={p.progress} aria-label={`Uploading image ${n}`} />
                ) : (
                  <div className="mt-1 flex gap-3">
                    <button
                      type="button"
                      className="font-medium text-indigo-700 underline"
                      onClick={() => void start(p)}
                    >
                      {p.status === 'failed' ? `Retry image ${n}` : `Upload image ${n}`}
                    </button>
                    <button type="button" className="text-rose-700 underline" onClick={() => removePending(p)}>
                      Remove image {n}
                    </button>
                  </div>
                )}
                {p.error ? (
                  <p role="alert" className="mt-1 text-rose-700">
                    {p.error}
                  </p>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
      {hints.length > 0 ? (
        <ul role="status" className="mt-2 list-disc pl-5 text-sm text-amber-800">
          {hints.map((h) => (
            <li key={h}>{h}</li>
          ))}
        </ul>
      ) : null}
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}

/** `JPEG · 64×48 · 3 KB`; a video's `MP4 · 0:30 · 1080×1920 · 12.3 MB`. */
const describeMedia = (m: DraftMedia) =>
  [
    m.video ? m.video.container.toUpperCase() : m.type.replace('image/', '').toUpperCase(),
    ...(m.video ? [clockDuration(m.video.durationMs)] : []),
    `${m.width}×${m.height}`,
    megabytes(m.size),
  ].join(' · ');
