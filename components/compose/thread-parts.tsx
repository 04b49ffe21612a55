'use client';

import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FieldError, fieldAria, inputClass } from '@/components/ui/field';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';
import { MAX_THREAD_PARTS, MIN_THREAD_PARTS } from '@/lib/posts/thread-limits';
import type { ComposeAccount } from './accounts-picker';
import { MediaPicker } from './media-picker';
import { newThreadPart, type ThreadPart } from './draft-parts';

export { newThreadPart, type ThreadPart } from './draft-parts';

/**
 * One part as the form keeps it, with its uploaded images (a draft saved before parts had images has none); the
 * id keeps React's rows (focus, and images being added) with their part when reordered.
 */

/** The hidden field with every part's image ids, in the parts' order (`[[id, …], …]`). */
export const partMediaIdsValue = (parts: ThreadPart[]) =>
  JSON.stringify(parts.map((p) => (p.media ?? []).map((m) => m.id)));

/** What a part's image picker needs (omitted: the parts take no images here). */
export type PartMediaOptions = {
  requireAltText: boolean;
  selected: Pick<ComposeAccount, 'handle' | 'provider'>[];
  /** Whether this part is still adding images (the post waits for them). */
  onPendingChange: (partId: string, pending: boolean) => void;
};

type Focus = { id: string; control: 'text' | 'up' | 'down' };

type Props = {
  parts: ThreadPart[];
  onChange: (parts: ThreadPart[]) => void;
  /** Networks of the chosen accounts: each part is counted against each one's limit, its way. */
  providers: ProviderName[];
  /** Field errors as the server names them: `parts` and `parts.<i>.text`. */
  errors?: Record<string, string[] | undefined>;
  /** Prefix for element ids (two editors can be on one page). */
  idPrefix?: string;
  /** Each part gets its own images (up to 4), like a single post. */
  media?: PartMediaOptions;
};

/**
 * A thread's parts: add, remove and reorder them (buttons, so the keyboard does all of it; focus follows the
 * moved part), each with its live count per chosen network. The textareas are named `parts`, in order.
 */
export function ThreadParts({ parts, onChange, providers, errors = {}, idPrefix = 'part', media }: Props) {
  const [announcement, setAnnouncement] = useState('');
  const [focus, setFocus] = useState<Focus | null>(null);
  const controls = useRef(new Map<string, HTMLElement | null>());
  const shown = providers.length ? providers : (['x', 'mastodon'] as const);
  const noReplies = providers.filter((p) => !PROVIDER_META[p].kinds.includes('reply'));
  // Networks whose replies are comments (Instagram): part 2 is the post's first comment, with its own limits.
  const commented = providers.filter((p) => PROVIDER_META[p].replies);

  useEffect(() => {
    if (!focus) return;
    const target = controls.current.get(`${focus.id}:${focus.control}`);
    // A move button that became disabled (the part reached an end) hands focus to its text.
    if (target && !(target as HTMLButtonElement).disabled) target.focus();
    else controls.current.get(`${focus.id}:text`)?.focus();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- focus is applied once, after the rows re-render
    setFocus(null);
  }, [focus, parts]);

  const ref = (key: string) => (el: HTMLElement | null) => {
    controls.current.set(key, el);
  };

  function move(index: number, by: -1 | 1) {
    const to = index + by;
    if (to < 0 || to >= parts.length) return;
    const next = [...parts];
    const [moved] = next.splice(index, 1);
    next.splice(to, 0, moved!);
    onChange(next);
    setAnnouncement(`Part ${index + 1} moved ${by < 0 ? 'up' : 'down'}: it is now part ${to + 1} of ${parts.length}.`);
    setFocus({ id: moved!.id, control: by < 0 ? 'up' : 'down' });
  }

  function remove(index: number) {
    if (parts.length <= MIN_THREAD_PARTS) return;
    const next = parts.filter((_, i) => i !== index);
    onChange(next);
    setAnnouncement(`Part ${index + 1} removed: ${next.length} parts left.`);
    setFocus({ id: next[Math.max(0, index - 1)]!.id, control: 'text' });
  }

  function add() {
    if (parts.length >= MAX_THREAD_PARTS) return;
    const part = newThreadPart();
    onChange([...parts, part]);
    setAnnouncement(`Part ${parts.length + 1} added.`);
    setFocus({ id: part.id, control: 'text' });
  }

  return (
    <fieldset aria-describedby={`${idPrefix}s-error`}>
      <legend className="text-sm font-medium text-slate-900">
        Thread parts{' '}
        <span className="font-normal text-slate-600">
          ({parts.length} of at most {MAX_THREAD_PARTS})
        </span>
      </legend>
      <p className="mt-1 text-xs text-slate-500">
        Published in this order, each part as a reply to the one before it, once each.
      </p>
      {noReplies.length > 0 && (
        <p role="note" className="mt-2 text-sm text-rose-700">
          {noReplies.map((p) => PROVIDER_META[p].label).join(', ')} cannot publish threads (no replies): choose other
          accounts.
        </p>
      )}
      {commented.map((p) => {
        const { label, replies } = PROVIDER_META[p];
        return (
          <p
            key={p}
            role="note"
            className={`mt-2 text-sm ${parts.length > replies!.maxThreadParts ? 'text-rose-700' : 'text-slate-600'}`}
          >
            On {label}, part 2 is the post’s first {replies!.noun}, published once the post is out (up to{' '}
            {replies!.textLimit} characters, no images); {label} takes {replies!.maxThreadParts} parts at most.
          </p>
        );
      })}
      <ol className="mt-3 space-y-4">
        {parts.map((part, i) => {
          const id = `${idPrefix}-${i}`;
          const error = errors[`parts.${i}.text`]?.[0];
          return (
            <li key={part.id} className="rounded-md border border-slate-200 p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <label htmlFor={id} className="text-sm font-medium text-slate-900">
                  Part {i + 1}
                </label>
                <span className="flex gap-1">
                  <Button
                    ref={ref(`${part.id}:up`)}
                    type="button"
                    variant="secondary"
                    className="px-2 py-1 text-xs"
                    aria-label={`Move part ${i + 1} up`}
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                  >
                    ↑ Up
                  </Button>
                  <Button
                    ref={ref(`${part.id}:down`)}
                    type="button"
                    variant="secondary"
                    className="px-2 py-1 text-xs"
                    aria-label={`Move part ${i + 1} down`}
                    disabled={i === parts.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    ↓ Down
                  </Button>
                  <Button
                    type="button"
                    variant="secondary"
                    className="px-2 py-1 text-xs"
                    aria-label={`Remove part ${i + 1}`}
                    disabled={parts.length <= MIN_THREAD_PARTS}
                    onClick={() => remove(i)}
                  >
                    Remove
                  </Button>
                </span>
              </div>
              <textarea
                {...fieldAria(id, { error, extra: [`${id}-count`] })}
                ref={ref(`${part.id}:text`)}
                name="parts"
                rows={3}
                value={part.text}
                onChange={(e) => onChange(parts.map((p) => (p.id === part.id ? { ...p, text: e.target.value } : p)))}
                className={inputClass}
              />
              <p id={`${id}-count`} className="mt-1 flex flex-wrap gap-3 text-xs text-slate-600" aria-live="polite">
                {shown.map((p) => {
                  const { countText, textLimit, label, replies } = PROVIDER_META[p];
                  const limit = i > 0 && replies ? replies.textLimit : textLimit;
                  const count = countText(part.text);
                  return (
                    <span key={p} className={count > limit ? 'font-semibold text-rose-700' : ''}>
                      {count}/{limit} {label}
                      {i > 0 && replies ? ` ${replies.noun}` : ''}
                    </span>
                  );
                })}
              </p>
              <FieldError id={id} error={error} />
              {media && (
                <div className="mt-3">
                  <MediaPicker
                    media={part.media ?? []}
                    onChange={(next) => onChange(parts.map((p) => (p.id === part.id ? { ...p, media: next } : p)))}
                    onPendingChange={(pending) => media.onPendingChange(part.id, pending)}
                    requireAltText={media.requireAltText}
                    selected={media.selected}
                    reply={i > 0}
                    error={errors[`parts.${i}.mediaIds`]?.[0]}
                    label={`Images of part ${i + 1}`}
                    errorId={`${id}-media`}
                    unit="part"
                    videos
                  />
                </div>
              )}
            </li>
          );
        })}
      </ol>
      <div className="mt-3">
        <Button type="button" variant="secondary" onClick={add} disabled={parts.length >= MAX_THREAD_PARTS}>
          Add part
        </Button>
      </div>
      <FieldError id={`${idPrefix}s`} error={errors.parts?.[0]} />
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </fieldset>
  );
}
