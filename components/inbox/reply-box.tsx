'use client';

import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FieldError, fieldAria, inputClass } from '@/components/ui/field';
import type { ActionState } from '@/lib/auth/action';
import type { AnswerActionData } from '@/lib/inbox/answer-state';
import { PRESENCE_BEAT_MS } from '@/lib/inbox/presence';
import { fillVariables } from '@/lib/inbox/variables';
import type { InboxItemRead } from '@/lib/reads/inbox';
import { form, type ConversationActions } from './inbox-actions';

/**
 * One intent: the key made when the item is opened (and after each answer sent), kept for every retry of it, and the
 * number of answers the member saw then. A teammate's answer that lands meanwhile makes the send a 409 that names
 * them; "Send another reply anyway" is a new intent that counts their answer.
 */
type Intent = { key: string; after: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function ReplyBox({
  item,
  actions,
  onSent,
  shortcuts,
}: {
  item: InboxItemRead;
  actions: ConversationActions;
  onSent: () => void;
  shortcuts: boolean;
}) {
  const [intent, setIntent] = useState<Intent>(() => ({ key: crypto.randomUUID(), after: item.answers.length }));
  const [text, setText] = useState('');
  const [sent, setSent] = useState('');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<ActionState<AnswerActionData> | null>(null);
  const [savedId, setSavedId] = useState(item.savedReplies[0]?.id ?? '');
  const replying = text.trim().length > 0;
  const beating = useRef(false);

  // "Ana is replying…" for the others while there is something in the box; gone when it is sent or left.
  useEffect(() => {
    if (!replying) return;
    const beat = () => void actions.presence(undefined, form({ itemId: item.id, state: 'replying' }));
    beat();
    beating.current = true;
    const timer = setInterval(beat, PRESENCE_BEAT_MS);
    return () => clearInterval(timer);
  }, [replying, actions, item.id]);
  useEffect(
    () => () => {
      if (beating.current) void actions.presence(undefined, form({ itemId: item.id, state: 'left' }));
    },
    [actions, item.id],
  );

  if (!item.answerable) return <p className="text-sm text-slate-700">{item.notAnswerable}</p>;

  async function send(body: string, chosen: Intent) {
    setSending(true);
    setResult(null);
    setSent(body);
    // A double click or a slow first submit: the same key again, answered once (a retry waits for the first).
    for (let tries = 0; tries < 10; tries++) {
      const answer = await actions.answer(
        undefined,
        form({ itemId: item.id, text: body, after: String(chosen.after), key: chosen.key }),
      );
      if (answer.data?.retryAfterSeconds) {
        await sleep(answer.data.retryAfterSeconds * 1000);
        continue;
      }
      setResult(answer);
      if (answer.ok) {
        setText('');
        setIntent({ key: crypto.randomUUID(), after: answer.data?.number ?? chosen.after + 1 });
        beating.current = false;
        onSent();
      }
      break;
    }
    setSending(false);
  }

  const saved = item.savedReplies.find((s) => s.id === savedId);
  const filled = saved ? fillVariables(saved.text, item) : '';
  const error = result && !result.ok ? result.errors?.text?.[0] : undefined;
  const conflict = result && !result.ok && result.data?.answeredBy ? result.data : null;
  return (
    <form
      aria-label="Reply"
      className="space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!sending) void send(text, intent);
      }}
    >
      <label htmlFor="reply-text" className="block text-sm font-medium text-slate-900">
        {intent.after > 0 ? 'Another reply' : 'Your answer'} to {item.authorName ?? item.authorHandle}{' '}
        {shortcuts && (
          <kbd aria-hidden="true" className="text-xs font-normal text-slate-600">
            r
          </kbd>
        )}
      </label>
      <textarea
        {...fieldAria('reply-text', { error })}
        aria-keyshortcuts={shortcuts ? 'r' : undefined}
        rows={4}
        className={inputClass}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <FieldError id="reply-text" error={error} />
      {conflict ? (
        <div role="alert" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-300">
          <p>{result!.message}</p>
          <Button
            type="button"
            variant="secondary"
            className="mt-2"
            disabled={sending}
            onClick={() => {
              const another = { key: crypto.randomUUID(), after: conflict.answers ?? intent.after + 1 };
              setIntent(another);
              void send(sent, another);
            }}
          >
            Send another reply anyway
          </Button>
        </div>
      ) : (
        <p role="status" className="min-h-5 text-sm text-slate-700">
          {sending ? 'Sending…' : (result?.message ?? '')}
        </p>
      )}
      <div className="flex flex-wrap items-end gap-2">
        <Button type="submit" disabled={sending || !replying}>
          {intent.after > 0 ? 'Send another reply' : 'Send reply'}
        </Button>
        {item.savedReplies.length > 0 && (
          <>
            <label className="text-sm text-slate-700">
              Saved reply
              <select
                className="ml-2 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
                value={savedId}
                onChange={(e) => setSavedId(e.target.value)}
              >
                {item.savedReplies.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </label>
            <Button type="button" variant="secondary" disabled={!saved} onClick={() => setText(filled)}>
              Insert
            </Button>
            <Button
              type="button"
              variant="secondary"
              disabled={!saved || sending}
              onClick={() => void send(filled, intent)}
            >
              Send saved reply
            </Button>
          </>
        )}
      </div>
      {saved && <p className="text-xs text-slate-600">Saved reply as it will be sent: “{filled}”</p>}
    </form>
  );
}
