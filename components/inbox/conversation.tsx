'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useTransition } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { LocalTime } from '@/components/ui/local-time';
import type { FormAction } from '@/lib/auth/action';
import { PROVIDER_META } from '@/lib/providers/catalog';
import { getJson } from '@/lib/query/get-json';
import { queryKeys, readUrls } from '@/lib/query/keys';
import type { InboxItemRead } from '@/lib/reads/inbox';
import { AnswerStatus, KIND_NAMES, StatusBadge } from './item-status';
import { form, type ConversationActions } from './inbox-actions';
import { isTyping } from './keys';
import { Notes } from './notes';
import { ReplyBox } from './reply-box';

/** Presence and new answers show within seconds: the open item is read again this often. */
const ITEM_POLL_MS = 2_000;

/** One item: our post above it, the thread around it, its answers, who is replying, the reply box, notes. */
export function Conversation({
  itemId,
  actions,
  shortcuts,
}: {
  itemId: string;
  actions: ConversationActions;
  shortcuts: boolean;
}) {
  const queryClient = useQueryClient();
  const { data: item, isError } = useQuery({
    queryKey: queryKeys.inboxItem(itemId),
    queryFn: () => getJson<InboxItemRead>(readUrls.inboxItem(itemId)),
    refetchInterval: ITEM_POLL_MS,
  });
  const [pending, startTransition] = useTransition();
  const [status, setStatus] = useState('');
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.inboxItem(itemId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.inboxes() });
  };
  const run = (action: FormAction, fields: Record<string, string>) =>
    startTransition(async () => {
      const result = await action(undefined, form({ itemId, ...fields }));
      setStatus(result.message ?? (result.ok ? 'Saved.' : 'That did not work.'));
      refresh();
    });
  const done = item?.doneAt !== null;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!shortcuts || isTyping(event) || !item?.canAnswer) return;
      if (event.key === 'e') {
        event.preventDefault();
        run(actions.done, { done: String(!done) });
      } else if (event.key === 'r') {
        event.preventDefault();
        document.getElementById('reply-text')?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (isError) return <p className="text-sm text-rose-700">This item is not in your inbox (any more).</p>;
  if (!item) return <p className="text-sm text-slate-600">Loading…</p>;
  const network = PROVIDER_META[item.provider].label;
  return (
    <article aria-label={`Conversation with ${item.authorName ?? item.authorHandle}`} className="space-y-4">
      {item.ourPost && (
        <div className="rounded-lg bg-slate-50 p-4 text-sm ring-1 ring-slate-200">
          <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">Your post on {network}</p>
          <p className="mt-1 whitespace-pre-wrap text-slate-800">{item.ourPost.text}</p>
          {item.ourPost.url && (
            <a
              className="mt-1 inline-block text-indigo-700 hover:underline"
              href={item.ourPost.url}
              target="_blank"
              rel="noreferrer"
            >
              View your post on {network}
            </a>
          )}
        </div>
      )}
      {item.thread.length > 0 && (
        <ol aria-label="Earlier in the conversation" className="space-y-2 border-l-2 border-slate-200 pl-4 text-sm">
          {item.thread.map((t) => (
            <li key={t.id}>
              <span className="font-medium text-slate-800">{t.authorName ?? t.authorHandle}</span>{' '}
              <span className="text-slate-600">
                · <LocalTime iso={t.receivedAt} />
              </span>
              <p className="text-slate-700">{t.text}</p>
            </li>
          ))}
        </ol>
      )}
      <div className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-base font-semibold text-slate-900">
            {item.authorName ?? item.authorHandle}{' '}
            <span className="text-sm font-normal text-slate-600">{item.authorHandle}</span>
          </h2>
          <span className="text-xs text-slate-600">
            <LocalTime iso={item.receivedAt} />
          </span>
        </div>
        <p className="mt-2 whitespace-pre-wrap text-slate-900">{item.text}</p>
        <div className="mt-3 flex flex-wrap items-center gap-2 text-xs text-slate-600">
          <Badge>{network}</Badge>
          <span>
            {KIND_NAMES[item.kind]} to {item.accountHandle} · {item.workspaceName}
          </span>
          <StatusBadge
            status={done ? 'done' : item.answeredAt ? 'answered' : 'unanswered'}
            source={item.answerSource}
          />
          {item.url && (
            <a className="text-indigo-700 hover:underline" href={item.url} target="_blank" rel="noreferrer">
              View on {network}
            </a>
          )}
        </div>
      </div>
      {item.answers.length > 0 && (
        <ol aria-label="Answers" className="space-y-2">
          {item.answers.map((a) => (
            <li key={a.id} className="rounded-lg bg-emerald-50/50 p-3 text-sm ring-1 ring-emerald-200">
              <p className="flex flex-wrap items-center gap-2 text-slate-700">
                <span className="font-medium">
                  Answer {a.number} by {a.actorName}
                </span>
                <AnswerStatus status={a.status} />
                {a.externalUrl && (
                  <a className="text-indigo-700 hover:underline" href={a.externalUrl} target="_blank" rel="noreferrer">
                    View reply
                  </a>
                )}
              </p>
              <p className="mt-1 whitespace-pre-wrap text-slate-900">{a.text}</p>
              {a.failureReason && <p className="mt-1 text-rose-700">{a.failureReason}</p>}
            </li>
          ))}
        </ol>
      )}
      {item.answerSource === 'platform' && (
        <p className="text-sm text-slate-700">Answered on {network} from another app.</p>
      )}
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-700">
        {item.replying.length > 0 && (
          <span className="font-medium text-amber-900">
            {item.replying.map((r) => r.name).join(' and ')} {item.replying.length === 1 ? 'is' : 'are'} replying…
          </span>
        )}
      </p>
      {item.canAnswer ? (
        <>
          <ReplyBox item={item} actions={actions} onSent={refresh} shortcuts={shortcuts} />
          <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
            <label className="flex items-center gap-2 text-sm text-slate-700">
              Assigned to
              <select
                className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
                value={item.assignedToUserId ?? ''}
                disabled={pending}
                onChange={(e) => run(actions.assign, { userId: e.target.value })}
              >
                <option value="">Nobody</option>
                {item.members.map((m) => (
                  <option key={m.userId} value={m.userId}>
                    {m.name}
                  </option>
                ))}
              </select>
            </label>
            <Button
              variant="secondary"
              disabled={pending}
              aria-keyshortcuts={shortcuts ? 'e' : undefined}
              onClick={() => run(actions.done, { done: String(!done) })}
            >
              {done ? 'Reopen' : 'Mark done'}{' '}
              {shortcuts && (
                <kbd aria-hidden="true" className="text-xs text-slate-600">
                  e
                </kbd>
              )}
            </Button>
            <span role="status" className="text-sm text-slate-700">
              {status}
            </span>
          </div>
          <Notes item={item} action={actions.note} onAdded={refresh} />
        </>
      ) : (
        <p className="text-sm text-slate-600">Your role in {item.workspaceName} reads the inbox; managers answer it.</p>
      )}
    </article>
  );
}
