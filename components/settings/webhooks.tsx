'use client';

import { useActionState } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FieldError, TextField } from '@/components/ui/field';
import { LocalTime } from '@/components/ui/local-time';
import { OneTimeSecret } from '@/components/ui/one-time-secret';
import { SubmitButton } from '@/components/ui/submit-button';
import type { WebhookLogRow } from '@/db/queries/webhooks';
import type { FormAction } from '@/lib/auth/action';
import { WEBHOOK_EVENT_LABELS } from '@/lib/webhooks/event-labels';

export type WebhookEndpointView = { id: string; url: string; events: string[]; enabled: boolean; log: WebhookLogRow[] };

const STATUS: Record<WebhookLogRow['status'], [string, BadgeTone]> = {
  pending: ['Retrying', 'amber'],
  succeeded: ['Delivered', 'green'],
  failed: ['Gave up', 'red'],
};

export function CreateWebhookEndpointForm({ action }: { action: FormAction<{ secret: string }> }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  return (
    <form action={formAction} className="space-y-3">
      <TextField
        id="webhook-url"
        name="url"
        label="Endpoint URL"
        placeholder="https://example.com/webhooks/semel"
        className="max-w-xl"
        error={state?.errors?.url?.[0]}
      />
      <TextField
        id="webhook-secret"
        name="secret"
        label="Signing secret (optional)"
        placeholder="whsec_… — leave blank to generate one"
        className="max-w-xl"
        error={state?.errors?.secret?.[0]}
      />
      <fieldset aria-describedby="webhook-events-error">
        <legend className="text-sm font-medium">Events</legend>
        {Object.entries(WEBHOOK_EVENT_LABELS).map(([type, label]) => (
          <label key={type} className="mt-1 flex items-center gap-2 text-sm">
            <input type="checkbox" name="events" value={type} defaultChecked={type.startsWith('delivery.')} />
            <code className="text-xs">{type}</code> <span className="text-slate-600">{label}</span>
          </label>
        ))}
        <FieldError id="webhook-events" error={state?.errors?.events?.[0]} />
      </fieldset>
      <SubmitButton pending={pending} pendingLabel="Adding…">
        Add endpoint
      </SubmitButton>
      {state?.ok && state.data && (
        <OneTimeSecret message={state.message} value={state.data.secret} testId="new-secret" />
      )}
      {state && !state.ok && (
        <p role="alert" className="text-sm text-rose-700">
          {state.message}
        </p>
      )}
    </form>
  );
}

/** One small form posting one id: "Send test event", "Delete", "Redeliver". */
function IdButton(props: {
  action: FormAction;
  name: string;
  value: string;
  /** More hidden fields posted with the id (the enable/disable switch says which). */
  extra?: Record<string, string>;
  label: string;
  pendingLabel: string;
  ariaLabel: string;
  variant?: 'secondary' | 'danger';
}) {
  const [state, formAction, pending] = useActionState(props.action, undefined);
  return (
    <form action={formAction} className="inline-flex items-center gap-2">
      <input type="hidden" name={props.name} value={props.value} />
      {Object.entries(props.extra ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant={props.variant ?? 'secondary'} disabled={pending} aria-label={props.ariaLabel}>
        {pending ? props.pendingLabel : props.label}
      </Button>
      {state?.message && (
        <span role="status" className="text-xs text-slate-600">
          {state.message}
        </span>
      )}
    </form>
  );
}

export function WebhookEndpointCard({
  endpoint,
  sendTest,
  remove,
  redeliver,
  setEnabled,
}: {
  endpoint: WebhookEndpointView;
  sendTest: FormAction;
  remove: FormAction;
  redeliver: FormAction;
  setEnabled: FormAction;
}) {
  return (
    <li className="space-y-3 px-4 py-4 text-sm" aria-label={`Endpoint ${endpoint.url}`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="break-all font-medium">
            {endpoint.url}{' '}
            {endpoint.enabled ? (
              <Badge tone="green">Enabled</Badge>
            ) : (
              <Badge tone="gray">Disabled: nothing is sent</Badge>
            )}
          </p>
          <p className="text-xs text-slate-600" aria-label="Events">
            {endpoint.events.join(' · ')}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <IdButton
            action={sendTest}
            name="endpointId"
            value={endpoint.id}
            label="Send test event"
            pendingLabel="Sending…"
            ariaLabel={`Send test event to ${endpoint.url}`}
          />
          <IdButton
            action={setEnabled}
            name="endpointId"
            value={endpoint.id}
            extra={{ enabled: String(!endpoint.enabled) }}
            label={endpoint.enabled ? 'Disable' : 'Enable'}
            pendingLabel="Saving…"
            ariaLabel={`${endpoint.enabled ? 'Disable' : 'Enable'} ${endpoint.url}`}
          />
          <IdButton
            action={remove}
            name="endpointId"
            value={endpoint.id}
            label="Delete"
            pendingLabel="Deleting…"
            ariaLabel={`Delete ${endpoint.url}`}
            variant="danger"
          />
        </div>
      </div>
      <table className="w-full text-left text-xs" aria-label={`Delivery log of ${endpoint.url}`}>
        <thead className="text-slate-500">
          <tr>
            <th className="py-1 font-medium">Event</th>
            <th className="py-1 font-medium">Status</th>
            <th className="py-1 font-medium">Response</th>
            <th className="py-1 font-medium">Latency</th>
            <th className="py-1 font-medium">Attempts</th>
            <th className="py-1 font-medium">Last attempt</th>
            <th className="py-1 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {endpoint.log.length === 0 && (
            <tr>
              <td colSpan={7} className="py-2 text-slate-600">
                Nothing sent yet.
              </td>
            </tr>
          )}
          {endpoint.log.map((row) => {
            const [label, tone] = STATUS[row.status];
            return (
              <tr key={row.messageId}>
                <td className="py-1">
                  <code>{row.type}</code> <span className="text-slate-500">#{row.sequence}</span>
                  <div className="font-mono text-[10px] text-slate-400">{row.eventId}</div>
                </td>
                <td className="py-1">
                  <Badge tone={tone}>{label}</Badge>
                </td>
                <td className="py-1">{row.statusCode ?? row.error ?? '—'}</td>
                <td className="py-1">{row.latencyMs === null ? '—' : `${row.latencyMs} ms`}</td>
                <td className="py-1">{row.attempts}</td>
                <td className="py-1">{row.lastAttemptAt ? <LocalTime iso={row.lastAttemptAt} seconds /> : '—'}</td>
                <td className="py-1 text-right">
                  <IdButton
                    action={redeliver}
                    name="messageId"
                    value={row.messageId}
                    label="Redeliver"
                    pendingLabel="Sending…"
                    ariaLabel={`Redeliver ${row.type} #${row.sequence}`}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </li>
  );
}
