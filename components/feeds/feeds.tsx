'use client';

import Link from 'next/link';
import { useActionState, useState } from 'react';
import { CheckboxGroup } from '@/components/ui/checkbox-group';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { LocalTime } from '@/components/ui/local-time';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Feed = {
  id: string;
  name: string;
  url: string;
  paused: boolean;
  mode: string;
  targets: string;
  template: string | null;
  pollMinutes: number;
  lastPolledAt: string | null;
  lastError: string | null;
};
type Item = {
  id: string;
  title: string;
  link: string | null;
  postId: string | null;
  queued: boolean;
  error: string | null;
  /** Refused for a reason that passes: tried again from `retryAt`. */
  waiting: string | null;
  retryAt: string | null;
  createdAt: string;
};

/**
 * One feed: where its items go, when it was last read and how, its latest items with their posts — an item waiting
 * says why and when it is tried again, one refused says why, with "Retry".
 */
export function FeedCard(props: {
  feed: Feed;
  items: Item[];
  check: FormAction;
  pause: FormAction;
  retry: FormAction;
}) {
  const { feed } = props;
  const [checkState, check, checking] = useActionState(props.check, undefined);
  const [pauseState, pause, pausing] = useActionState(props.pause, undefined);
  const [retryState, retry, retrying] = useActionState(props.retry, undefined);
  return (
    <section aria-labelledby={`feed-${feed.id}`} className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <header className="mb-3 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={`feed-${feed.id}`} className="text-base font-semibold">
            {feed.name}
            {feed.paused && <span className="ml-2 rounded bg-amber-100 px-1.5 text-xs text-amber-900">paused</span>}
          </h2>
          <p className="truncate font-mono text-xs text-slate-600">{feed.url}</p>
          <p className="text-sm text-slate-600">
            {feed.mode} · {feed.targets}
            {feed.template && ` · template “${feed.template}”`} · every {feed.pollMinutes} min · last read{' '}
            {feed.lastPolledAt ? <LocalTime iso={feed.lastPolledAt} /> : 'never'}
          </p>
          {feed.lastError && (
            <p role="status" className="mt-1 text-sm text-rose-700">
              {feed.lastError}
            </p>
          )}
        </div>
        <div className="flex gap-2">
          <form action={check}>
            <input type="hidden" name="feedId" value={feed.id} />
            <SubmitButton pending={checking} pendingLabel="Checking…">
              Check now
            </SubmitButton>
          </form>
          <form action={pause}>
            <input type="hidden" name="feedId" value={feed.id} />
            <input type="hidden" name="paused" value={String(!feed.paused)} />
            <SubmitButton variant="secondary" pending={pausing} pendingLabel="Saving…">
              {feed.paused ? 'Resume' : 'Pause'}
            </SubmitButton>
          </form>
        </div>
      </header>
      {checkState ? <FormStatus state={checkState} /> : null}
      {pauseState && !pauseState.ok ? <FormStatus state={pauseState} /> : null}
      <ul aria-label={`Latest items of ${feed.name}`} className="mt-3 divide-y divide-slate-100 text-sm">
        {props.items.length === 0 && <li className="py-2 text-slate-600">No items yet.</li>}
        {props.items.map((i) => (
          <li key={i.id} className="flex flex-wrap items-baseline justify-between gap-2 py-2">
            <span className="min-w-0 truncate">{i.title}</span>
            <span className="text-xs text-slate-600">
              {i.postId ? (
                <Link className="text-indigo-700 underline" href={`/posts/${i.postId}`}>
                  its post
                </Link>
              ) : i.queued ? (
                'in the queue'
              ) : i.error ? (
                <span className="text-rose-700">not posted: {i.error}</span>
              ) : i.waiting ? (
                <span className="text-amber-800">
                  waiting: {i.waiting}
                  {i.retryAt && (
                    <>
                      {' '}
                      · tried again after <LocalTime iso={i.retryAt} />
                    </>
                  )}
                </span>
              ) : (
                'being posted'
              )}{' '}
              · <LocalTime iso={i.createdAt} />
              {i.error && !i.postId && !i.queued && (
                <form action={retry} className="ml-2 inline">
                  <input type="hidden" name="itemId" value={i.id} />
                  <button
                    disabled={retrying}
                    aria-label={`Retry: ${i.title.slice(0, 60)}`}
                    className="rounded px-2 py-0.5 text-xs ring-1 ring-slate-300 disabled:opacity-40"
                  >
                    Retry
                  </button>
                </form>
              )}
            </span>
          </li>
        ))}
      </ul>
      {retryState ? <FormStatus state={retryState} /> : null}
    </section>
  );
}

export function NewFeedForm(props: {
  action: FormAction;
  accounts: { id: string; handle: string }[];
  templates: { id: string; name: string }[];
  queues: { id: string; name: string }[];
}) {
  const [state, formAction, pending] = useActionState(props.action, undefined);
  const [mode, setMode] = useState('draft');
  const error = (name: string) => state?.errors?.[name]?.[0];
  return (
    <section aria-labelledby="new-feed" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id="new-feed" className="mb-3 text-base font-semibold">
        Add a feed
      </h2>
      <form action={formAction} className="grid gap-3 sm:grid-cols-2" noValidate>
        <Field id="feed-name" label="Name" error={error('name')}>
          <input {...fieldAria('feed-name', { error: error('name') })} name="name" className={inputClass} />
        </Field>
        <Field id="feed-url" label="Feed URL (RSS, Atom or JSON Feed)" error={error('url')}>
          <input {...fieldAria('feed-url', { error: error('url') })} name="url" type="url" className={inputClass} />
        </Field>
        <Field id="feed-mode" label="New items become" error={error('mode')}>
          <select
            {...fieldAria('feed-mode', { error: error('mode') })}
            name="mode"
            value={mode}
            onChange={(e) => setMode(e.target.value)}
            className={inputClass}
          >
            <option value="draft">Drafts to review</option>
            <option value="publish">Posts at the accounts’ next free slot</option>
            <option value="queue">Posts of an evergreen queue</option>
          </select>
        </Field>
        <Field id="feed-interval" label="Check every (minutes)" error={error('pollMinutes')}>
          <input
            {...fieldAria('feed-interval', { error: error('pollMinutes') })}
            name="pollMinutes"
            type="number"
            min={5}
            defaultValue={60}
            className={inputClass}
          />
        </Field>
        <Field id="feed-template" label="Template (default: {{title}} {{link}})" error={error('templateId')}>
          <select
            {...fieldAria('feed-template', { error: error('templateId') })}
            name="templateId"
            className={inputClass}
          >
            <option value="">None</option>
            {props.templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </Field>
        {mode === 'queue' ? (
          <Field id="feed-queue" label="Evergreen queue" error={error('evergreenQueueId')}>
            <select
              {...fieldAria('feed-queue', { error: error('evergreenQueueId') })}
              name="evergreenQueueId"
              className={inputClass}
            >
              <option value="">Choose…</option>
              {props.queues.map((q) => (
                <option key={q.id} value={q.id}>
                  {q.name}
                </option>
              ))}
            </select>
          </Field>
        ) : (
          <CheckboxGroup
            legend="Accounts"
            name="accountIds"
            options={props.accounts.map((a) => ({ value: a.id, label: a.handle }))}
            error={error('accountIds')}
          />
        )}
        <p className="text-xs text-slate-600 sm:col-span-2">
          Template variables: <code>{'{{title}}'}</code>, <code>{'{{link}}'}</code>, <code>{'{{summary}}'}</code>. Each
          item is posted once: by its GUID, its link and its content.
        </p>
        <div className="flex items-center gap-3 sm:col-span-2">
          <SubmitButton pending={pending} pendingLabel="Adding…">
            Add feed
          </SubmitButton>
          {state ? <FormStatus state={state} /> : null}
        </div>
      </form>
    </section>
  );
}
