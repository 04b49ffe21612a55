'use client';

import { useState } from 'react';
import { NetworkPreview } from '@/components/compose/network-preview';
import { LocalTime } from '@/components/ui/local-time';
import type { ActionState, FormAction } from '@/lib/auth/action';
import type { ApprovalPostView } from '@/lib/approvals/view';

type Decision = 'approved' | 'changes_requested';

/** Either the client's link (its public route) or an admin's server action decides. */
export type DecideVia = { kind: 'link'; token: string } | { kind: 'action'; action: FormAction };

async function submitDecision(
  via: DecideVia,
  input: { postId: string; decision: Decision; comment: string; revision: number; name: string },
): Promise<ActionState> {
  if (via.kind === 'action') {
    const form = new FormData();
    form.set('postId', input.postId);
    form.set('decision', input.decision);
    form.set('comment', input.comment);
    form.set('revision', String(input.revision));
    return via.action(undefined, form);
  }
  const response = await fetch(`/api/approve/${encodeURIComponent(via.token)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...input, comment: input.comment || undefined, name: input.name || undefined }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    message?: string;
    detail?: string;
    errors?: Record<string, string[]>;
  };
  return { ok: response.ok, message: body.message ?? body.detail ?? 'Something went wrong.', errors: body.errors };
}

const STATE_TEXT: Record<ApprovalPostView['state'], string> = {
  pending: 'Waiting for approval',
  approved: 'Approved',
  changes_requested: 'Changes requested',
  not_awaiting: 'Not waiting for approval',
};

/** One post as each network will show it, with Approve and Request changes (a comment) while it waits. */
export function ApprovalCard({ post, via }: { post: ApprovalPostView; via: DecideVia | null }) {
  const [comment, setComment] = useState('');
  const [name, setName] = useState('');
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<ActionState | null>(null);
  const decided = result?.ok || post.state !== 'pending';
  const decide = async (decision: Decision) => {
    if (pending || !via) return; // a double click sends one request; the server keeps one decision either way
    setPending(true);
    try {
      setResult(await submitDecision(via, { postId: post.id, decision, comment, revision: post.revision, name }));
    } finally {
      setPending(false);
    }
  };
  const headingId = `approval-${post.id}`;
  return (
    <article aria-labelledby={headingId} className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id={headingId} className="text-base font-semibold">
        {post.kind === 'thread' ? 'Thread' : 'Post'} for <LocalTime iso={post.scheduledAt} />
      </h2>
      <p className="mb-4 text-sm text-slate-600" data-testid="approval-state">
        {STATE_TEXT[post.state]}
        {post.decision &&
          ` — by ${post.decision.deciderName}${post.decision.comment ? `: “${post.decision.comment}”` : ''}`}
      </p>
      <div className="grid gap-3 md:grid-cols-2">
        {post.networks.map((n) =>
          n.texts.map((text, part) => (
            <div key={`${n.accountId}-${part}`}>
              {n.texts.length > 1 && <p className="mb-1 text-xs text-slate-500">Part {part + 1}</p>}
              <NetworkPreview
                account={{ id: n.accountId, handle: n.handle, provider: n.provider, displayName: null }}
                text={text}
              />
            </div>
          )),
        )}
      </div>
      {post.images.length > 0 && (
        <ul aria-label="Images" className="mt-3 flex flex-wrap gap-2">
          {post.images.map((img) => (
            <li key={img.url}>
              {/* eslint-disable-next-line @next/next/no-img-element -- a signed, expiring URL; nothing to optimise */}
              <img src={img.url} alt={img.altText} className="h-24 w-24 rounded object-cover" />
            </li>
          ))}
        </ul>
      )}
      {!decided && via && (
        <div className="mt-4 space-y-2">
          {via.kind === 'link' && (
            <label className="block text-sm">
              <span className="font-medium">Your name (optional)</span>
              <input
                value={name}
                onChange={(e) => setName(e.target.value)}
                maxLength={80}
                className="mt-1 block w-full max-w-sm rounded-md border border-slate-300 px-2 py-1"
              />
            </label>
          )}
          <label className="block text-sm">
            <span className="font-medium">Comment</span>
            <textarea
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              maxLength={2000}
              rows={2}
              aria-describedby={`${headingId}-comment-error`}
              className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1"
            />
          </label>
          <p id={`${headingId}-comment-error`} className="text-sm text-rose-700">
            {result?.errors?.comment?.[0]}
          </p>
          <div className="flex gap-2">
            <button
              type="button"
              disabled={pending}
              onClick={() => decide('approved')}
              className="rounded-md bg-emerald-700 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-50"
            >
              Approve
            </button>
            <button
              type="button"
              disabled={pending}
              onClick={() => decide('changes_requested')}
              className="rounded-md px-3 py-1.5 text-sm font-semibold text-slate-900 ring-1 ring-slate-300 disabled:opacity-50"
            >
              Request changes
            </button>
          </div>
        </div>
      )}
      <p role="status" aria-live="polite" className="mt-3 text-sm font-medium text-slate-800">
        {result?.message}
      </p>
    </article>
  );
}
