'use client';

import Link from 'next/link';
import { useActionState, useState } from 'react';
import { StatusBadge } from '@/components/posts/status-badge';
import { Button } from '@/components/ui/button';
import { LocalTime } from '@/components/ui/local-time';
import type { ActionState } from '@/lib/auth/action';
import { webLink } from '@/lib/posts/web-link';

type Item = {
  deliveryId: string;
  postId: string;
  workspaceId: string;
  status: string;
  text: string;
  /** A thread part: which (0-based) of how many; parts is 1 for every other kind. */
  part: number;
  parts: number;
  handle: string;
  provider: string;
  updatedAt: string;
  nextCheckAt: string | null;
  reason: string | null;
  evidence: Record<string, unknown> | null;
  checks: number;
};
type Action = (state: ActionState | undefined, data: FormData) => Promise<ActionState>;

type Copy = { id: string; url: string | null; createdAt: string };
type Similar = Copy & { text: string; why: string };

const CONFIRM = {
  live: 'Mark this delivery as sent with this link?',
  delete_extras: 'Delete the extra copies from the platform and keep the oldest one?',
  publish: 'Publish this delivery now? Only do this if you checked the account and the post is not there.',
  cancel: 'Cancel this delivery?',
};

/** One review item with its evidence and the admin's three decisions (each confirmed, each double-submit-proof). */
export function ReviewItem({ item, action }: { item: Item; action: Action }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const copies = Array.isArray(item.evidence?.copies) ? (item.evidence.copies as Copy[]) : [];
  const similar = Array.isArray(item.evidence?.similar) ? (item.evidence.similar as Similar[]) : [];
  const hasExtras = item.status === 'needs_review' && copies.length > 1;
  const [choice, setChoice] = useState<keyof typeof CONFIRM>(hasExtras ? 'delete_extras' : 'live');
  const resolved = state?.ok;
  return (
    <li
      id={`delivery-${item.deliveryId}`}
      className="px-4 py-4"
      aria-label={`Review ${item.handle}: ${item.text.slice(0, 40)}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <Link href={`/posts/${item.postId}`} className="text-sm font-medium text-slate-900 hover:underline">
            {item.text}
          </Link>
          <p className="text-xs text-slate-600">
            {item.parts > 1 && (
              <>
                Thread part {item.part + 1} of {item.parts} ·{' '}
              </>
            )}
            {item.handle} · {item.provider} · since <LocalTime iso={item.updatedAt} /> · {item.checks}{' '}
            {item.checks === 1 ? 'check' : 'checks'}
            {item.nextCheckAt && (
              <>
                {' '}
                · next check <LocalTime iso={item.nextCheckAt} seconds />
              </>
            )}
          </p>
          {item.reason && <p className="mt-1 text-sm text-slate-700">{item.reason}</p>}
        </div>
        <StatusBadge status={item.status} />
      </div>
      {copies.length > 0 && (
        <div className="mt-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
          <p className="font-medium">
            {copies.length === 1 ? 'A copy is on the platform' : `${copies.length} copies on the platform`}
          </p>
          <ol className="ml-5 list-decimal">
            {copies.map((c, i) => (
              <li key={c.id}>
                {webLink(c.url) ? (
                  <a href={webLink(c.url)!} className="underline" target="_blank" rel="noreferrer">
                    {c.id}
                  </a>
                ) : (
                  c.id
                )}{' '}
                · <LocalTime iso={c.createdAt} seconds />
                {i === 0 && copies.length > 1 ? ' (oldest: kept)' : ''}
              </li>
            ))}
          </ol>
        </div>
      )}
      {similar.length > 0 && (
        <div className="mt-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
          <p className="font-medium">
            {similar.length === 1 ? 'A post' : `${similar.length} posts`} on the platform close to this one, not the
            same: is {similar.length === 1 ? 'it' : 'one of them'} this delivery?
          </p>
          <ul className="mt-1 space-y-1">
            {similar.map((c) => (
              <li key={c.id}>
                {c.url ? (
                  <a href={c.url} className="underline" target="_blank" rel="noreferrer">
                    {c.id}
                  </a>
                ) : (
                  c.id
                )}{' '}
                · <LocalTime iso={c.createdAt} seconds /> · <q className="italic">{c.text}</q>
                <span className="block text-xs">Only similar: {c.why}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {item.evidence && (
        <details className="mt-2 text-xs text-slate-600">
          <summary className="cursor-pointer">Evidence from the last check</summary>
          <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2">{JSON.stringify(item.evidence, null, 2)}</pre>
        </details>
      )}
      {!resolved && (
        <form
          action={formAction}
          onSubmit={(e) => {
            if (!window.confirm(CONFIRM[choice])) e.preventDefault();
          }}
          className="mt-3 flex flex-wrap items-end gap-3 rounded-md bg-slate-50 p-3"
        >
          <input type="hidden" name="workspaceId" value={item.workspaceId} />
          <input type="hidden" name="deliveryId" value={item.deliveryId} />
          <input type="hidden" name="action" value={choice} />
          <fieldset className="flex flex-wrap gap-3 text-sm">
            <legend className="sr-only">Decision</legend>
            {hasExtras && (
              <label className="flex items-center gap-1">
                <input
                  type="radio"
                  name="choice"
                  checked={choice === 'delete_extras'}
                  onChange={() => setChoice('delete_extras')}
                />
                Delete the extra copies
              </label>
            )}
            <label className="flex items-center gap-1">
              <input type="radio" name="choice" checked={choice === 'live'} onChange={() => setChoice('live')} />
              It is live
            </label>
            {item.status === 'needs_review' && (
              <>
                <label className="flex items-center gap-1">
                  <input
                    type="radio"
                    name="choice"
                    checked={choice === 'publish'}
                    onChange={() => setChoice('publish')}
                  />
                  It is not live — publish now
                </label>
                <label className="flex items-center gap-1">
                  <input
                    type="radio"
                    name="choice"
                    checked={choice === 'cancel'}
                    onChange={() => setChoice('cancel')}
                  />
                  Cancel
                </label>
              </>
            )}
          </fieldset>
          {choice === 'live' && (
            <label className="text-sm">
              <span className="block font-medium">Link or id of the live post</span>
              <input
                name="link"
                className="mt-1 w-72 rounded-md border border-slate-300 px-2 py-1 text-sm"
                aria-describedby={`link-error-${item.deliveryId}`}
              />
            </label>
          )}
          {choice === 'publish' && (
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="checked" />I checked the account
            </label>
          )}
          <Button type="submit" disabled={pending} variant={choice === 'cancel' ? 'danger' : 'primary'}>
            {pending ? 'Saving…' : 'Confirm'}
          </Button>
          <p id={`link-error-${item.deliveryId}`} aria-live="polite" className="w-full text-sm text-rose-700">
            {state && !state.ok ? state.message : null}
          </p>
        </form>
      )}
      {resolved && (
        <p role="status" className="mt-3 text-sm text-emerald-800">
          {state?.message}
        </p>
      )}
    </li>
  );
}
