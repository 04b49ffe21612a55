'use client';

import { useActionState } from 'react';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

const MODES = [
  { value: 'immediately', label: 'Immediately', hint: 'one email per event' },
  { value: 'digest', label: 'Daily digest', hint: 'one email a day (UTC) with all of them' },
  { value: 'off', label: 'Off', hint: 'the bell only' },
] as const;

/** The signed-in member's own email choice for this workspace. */
export function EmailModeForm({ emailMode, action }: { emailMode: string; action: FormAction }) {
  return (
    <ModeForm
      name="emailMode"
      value={emailMode}
      legend="Email me about needs review, failed, missed, approvals and accounts"
      submit="Save email preference"
      action={action}
    />
  );
}

/** The member's choice for new inbox messages (docs/inbox.md#notifications), apart from every other notification. */
export function InboxModeForm({ inboxMode, action }: { inboxMode: string; action: FormAction }) {
  return (
    <ModeForm
      name="inboxMode"
      value={inboxMode}
      legend="Email me about new inbox messages (replies, comments, mentions, DMs)"
      submit="Save inbox preference"
      action={action}
    />
  );
}

function ModeForm(props: { name: string; value: string; legend: string; submit: string; action: FormAction }) {
  const [state, formAction, pending] = useActionState(props.action, undefined);
  const error = state?.errors?.[props.name]?.[0];
  const errorId = `${props.name}-error`;
  return (
    <form action={formAction} className="space-y-3" noValidate>
      <fieldset aria-describedby={errorId}>
        <legend className="text-sm font-medium text-slate-900">{props.legend}</legend>
        <div className="mt-2 space-y-1">
          {MODES.map((mode) => (
            <label key={mode.value} className="flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name={props.name} value={mode.value} defaultChecked={props.value === mode.value} />
              {mode.label} <span className="text-slate-500">({mode.hint})</span>
            </label>
          ))}
        </div>
        <p id={errorId} aria-live="polite" className="mt-1 text-sm text-rose-700">
          {error}
        </p>
      </fieldset>
      <SubmitButton pending={pending} pendingLabel="Saving…">
        {props.submit}
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}

type SlackProps = { host: string | null; canEdit: boolean; save: FormAction; remove: FormAction; test: FormAction };

/** The workspace's Slack incoming webhook: set or replaced by admins; only its host is ever shown again. */
export function SlackWebhookForm({ host, canEdit, save, remove, test }: SlackProps) {
  const [state, formAction, pending] = useActionState(save, undefined);
  const [removed, removeAction, removing] = useActionState(remove, undefined);
  const [tested, testAction, testing] = useActionState(test, undefined);
  const error = state?.errors?.url?.[0];
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700" data-testid="slack-status">
        {host ? `Slack messages go to an incoming webhook on ${host}.` : 'No Slack webhook is set.'}
      </p>
      <form action={formAction} className="space-y-2" noValidate>
        <Field
          id="slack-url"
          label="Slack incoming-webhook URL"
          error={error}
          description="From Slack: Apps → Incoming Webhooks. Stored encrypted; one message per event."
        >
          <div className="flex items-center gap-3">
            <input
              {...fieldAria('slack-url', { error, description: true })}
              name="url"
              type="url"
              autoComplete="off"
              disabled={!canEdit}
              placeholder="https://hooks.slack.com/services/…"
              className={inputClass}
            />
            <SubmitButton pending={pending} pendingLabel="Saving…" disabled={!canEdit}>
              Save webhook
            </SubmitButton>
          </div>
        </Field>
        <FormStatus state={state} />
      </form>
      {host && canEdit && (
        <div className="flex flex-wrap items-start gap-3">
          <form action={testAction}>
            <SubmitButton pending={testing} pendingLabel="Sending…" variant="secondary">
              Send test message
            </SubmitButton>
            <FormStatus state={tested} />
          </form>
          <form action={removeAction}>
            <SubmitButton pending={removing} pendingLabel="Removing…" variant="secondary">
              Remove Slack webhook
            </SubmitButton>
            <FormStatus state={removed} successOnly />
          </form>
        </div>
      )}
    </div>
  );
}
