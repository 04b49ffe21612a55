'use client';

import { useState } from 'react';
import { TextField } from '@/components/ui/field';
import type { ComposeDraft, DraftMedia } from './use-compose-draft';

const KIND_LABEL = { post: 'Post', reply: 'Reply', dm: 'Direct message', thread: 'Thread' } as const;

type Props = {
  draft: Pick<ComposeDraft, 'kind' | 'inReplyTo' | 'recipient' | 'text' | 'parts' | 'media'>;
  errors: { inReplyTo?: string; recipient?: string };
  update: (patch: Partial<ComposeDraft>) => void;
  /** Images are still being added: switching between a post and a thread waits (they would be lost). */
  uploadsPending?: boolean;
};

const MAX_IMAGES = 4;

/** `to` gets `from`'s images after its own (up to 4); what does not fit stays where it was. Nothing is dropped. */
function moveMedia(from: DraftMedia[], to: DraftMedia[]): { from: DraftMedia[]; to: DraftMedia[] } {
  const moving = from.filter((m) => !to.some((t) => t.id === m.id));
  const room = Math.max(0, MAX_IMAGES - to.length);
  return { to: [...to, ...moving.slice(0, room)], from: moving.slice(room) };
}

/**
 * Turning a post into a thread keeps what was written: its text becomes the first part (when that is still empty)
 * and its images move to the first part.
 */
export function startThread(draft: Props['draft']): Partial<ComposeDraft> {
  const [first, ...rest] = draft.parts;
  if (!first) return { kind: 'thread' };
  const moved = moveMedia(draft.media, first.media ?? []);
  const text = first.text || !draft.text ? first.text : draft.text;
  return { kind: 'thread', media: moved.from, parts: [{ ...first, text, media: moved.to }, ...rest] };
}

/** Turning a thread back into a single post (or reply, message) takes the first part's images with it. */
export function leaveThread(draft: Props['draft'], kind: Exclude<ComposeDraft['kind'], 'thread'>) {
  const [first, ...rest] = draft.parts;
  if (draft.kind !== 'thread' || !first) return { kind };
  const moved = moveMedia(first.media ?? [], draft.media);
  return { kind, media: moved.to, parts: [{ ...first, media: moved.from }, ...rest] };
}

/** Post, reply, direct message or thread, with the field the kind needs (the post it replies to, the recipient). */
export function KindPicker({ draft, errors, update, uploadsPending = false }: Props) {
  const [notice, setNotice] = useState<string | undefined>();
  function choose(kind: ComposeDraft['kind']) {
    if (uploadsPending && (kind === 'thread') !== (draft.kind === 'thread')) {
      setNotice('Finish or remove the images being added first: they go with the post or part they were added to.');
      return;
    }
    setNotice(undefined);
    update(kind === 'thread' ? startThread(draft) : leaveThread(draft, kind));
  }

  return (
    <>
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Kind</legend>
        <div className="mt-2 flex gap-4 text-sm">
          {(['post', 'reply', 'dm', 'thread'] as const).map((k) => (
            <label key={k} className="flex items-center gap-2">
              <input type="radio" name="kind" value={k} checked={draft.kind === k} onChange={() => choose(k)} />
              {KIND_LABEL[k]}
            </label>
          ))}
        </div>
        {notice && (
          <p role="alert" className="mt-1 text-sm text-rose-700">
            {notice}
          </p>
        )}
      </fieldset>
      {draft.kind === 'reply' && (
        <TextField
          id="inReplyTo"
          name="inReplyTo"
          label="Replying to (post id or link)"
          value={draft.inReplyTo}
          error={errors.inReplyTo}
          onChange={(e) => update({ inReplyTo: e.target.value })}
        />
      )}
      {draft.kind === 'dm' && (
        <TextField
          id="recipient"
          name="recipient"
          label="Recipient handle"
          value={draft.recipient}
          error={errors.recipient}
          onChange={(e) => update({ recipient: e.target.value })}
        />
      )}
    </>
  );
}
