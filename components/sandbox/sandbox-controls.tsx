'use client';

import { PROVIDER_LABEL } from '@/lib/providers/labels';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import { useKeptFormAction } from '@/components/ui/use-kept-form-action';
import { useRefreshOnSuccess } from '@/components/ui/use-refresh-on-success';
import type { FormAction } from '@/lib/auth/action';
import { queryKeys } from '@/lib/query/keys';
import type { AttemptSummary, NaiveRetryDemo } from '@/lib/sandbox/demo';
import { FAULT_LABELS, PROFILES, PROFILE_LABELS } from '@/lib/sandbox/labels';
import { useSandboxTimeline } from './use-sandbox-timeline';

const card = 'space-y-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200';
const input = 'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm';
const OUTCOME_TONE: Record<AttemptSummary['outcome'], BadgeTone> = {
  sent: 'green',
  failed: 'red',
  not_sent: 'gray',
  ambiguous: 'amber',
};

export type SandboxActions = {
  publishTestPost: FormAction<AttemptSummary>;
  updateFaults: FormAction;
  naiveRetryDemo: FormAction<NaiveRetryDemo>;
  revokeTokens: FormAction;
};

type Option = { accountId: string; handle: string; provider: keyof typeof PROVIDER_LABEL };

function AccountSelect({ id, options, allowAll = false }: { id: string; options: Option[]; allowAll?: boolean }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        Account
      </label>
      <select id={id} name="accountId" className={input} defaultValue={allowAll ? '' : options[0]?.accountId}>
        {allowAll && <option value="">All sandbox accounts</option>}
        {options.map((o) => (
          <option key={o.accountId} value={o.accountId}>
            {o.handle} ({PROVIDER_LABEL[o.provider]})
          </option>
        ))}
      </select>
    </div>
  );
}

function Attempt({ attempt, label }: { attempt: AttemptSummary; label: string }) {
  return (
    <li className="text-sm">
      <span className="font-medium">{label}:</span>{' '}
      <Badge tone={OUTCOME_TONE[attempt.outcome]}>{attempt.outcome}</Badge>{' '}
      <span className="text-slate-700">{attempt.reason}</span>{' '}
      <span className="text-xs text-slate-500">
        ({attempt.durationMs} ms{attempt.externalId ? `, id ${attempt.externalId}` : ''})
      </span>
    </li>
  );
}

const DURATIONS = [
  { name: 'latencyMs', label: 'Latency (ms)', max: 60_000, step: 50 },
  {
    name: 'processingMs',
    label: 'Processing time (ms; the post is created this long after the request, even if the client gave up)',
    max: 120_000,
    step: 100,
  },
  { name: 'readLagMs', label: 'Read lag (ms; new posts appear in listings this much later)', max: 300_000, step: 100 },
  {
    name: 'inboundPerDay',
    label: 'Inbound per day (replies, mentions and DMs people send it; the inbox reads them)',
    max: 500,
    step: 1,
  },
] as const;

/** Admin controls: publish a test post, set fault knobs, run the naive-retry demo. */
export function SandboxControls({ workspaceId, actions }: { workspaceId: string; actions: SandboxActions }) {
  const { data: accounts = [] } = useSandboxTimeline(workspaceId);
  const options = accounts.filter((a) => !a.disconnected);
  if (options.length === 0) return null;
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <TestPost workspaceId={workspaceId} options={options} action={actions.publishTestPost} />
      <FaultKnobs workspaceId={workspaceId} options={options} action={actions.updateFaults} />
      <NaiveRetry workspaceId={workspaceId} options={options} action={actions.naiveRetryDemo} />
      <RevokeTokens workspaceId={workspaceId} options={options} action={actions.revokeTokens} />
    </div>
  );
}

function TestPost({
  workspaceId,
  options,
  action,
}: {
  workspaceId: string;
  options: Option[];
  action: SandboxActions['publishTestPost'];
}) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  useRefreshOnSuccess(state, queryKeys.sandboxTimeline(workspaceId));
  return (
    <form onSubmit={onSubmit} className={card} aria-labelledby="test-post">
      <h2 id="test-post" className="text-base font-semibold">
        Publish a test post
      </h2>
      <AccountSelect id="test-post-account" options={options} />
      <TextField
        id="test-post-text"
        name="text"
        label="Text"
        defaultValue="Hello from the sandbox"
        error={state?.errors?.text?.[0]}
      />
      <SubmitButton pending={pending} pendingLabel="Publishing…">
        Publish test post
      </SubmitButton>
      <div role="status" aria-live="polite" aria-label="Test post result">
        {state?.data ? (
          <ul>
            <Attempt attempt={state.data} label="Outcome" />
          </ul>
        ) : (
          <p className="text-sm text-rose-700">{state?.message}</p>
        )}
      </div>
    </form>
  );
}

function FaultKnobs({
  workspaceId,
  options,
  action,
}: {
  workspaceId: string;
  options: Option[];
  action: SandboxActions['updateFaults'];
}) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  useRefreshOnSuccess(state, queryKeys.sandboxTimeline(workspaceId));
  return (
    <form onSubmit={onSubmit} className={card} aria-labelledby="fault-knobs">
      <h2 id="fault-knobs" className="text-base font-semibold">
        Fault knobs
      </h2>
      <AccountSelect id="faults-account" options={options} allowAll />
      <div className="grid grid-cols-2 gap-3">
        <div className="col-span-2">
          <label htmlFor="fault-profile" className="block text-sm font-medium text-slate-900">
            Platform profile
          </label>
          <select
            id="fault-profile"
            name="profile"
            className={input}
            defaultValue=""
            aria-describedby="fault-profile-error"
          >
            <option value="">Platform default (X: x, Mastodon: mastodon-modern)</option>
            {PROFILES.map((p) => (
              <option key={p} value={p}>
                {p} — {PROFILE_LABELS[p]}
              </option>
            ))}
          </select>
          <p id="fault-profile-error" aria-live="polite" className="text-sm text-rose-700">
            {state?.errors?.profile?.[0]}
          </p>
        </div>
        {DURATIONS.map(({ name, label, max, step }) => (
          <div key={name} className="col-span-2">
            <label htmlFor={`fault-${name}`} className="block text-sm font-medium text-slate-900">
              {label}
            </label>
            <input
              id={`fault-${name}`}
              name={name}
              type="number"
              min={0}
              max={max}
              step={step}
              defaultValue={0}
              className={input}
              aria-describedby={`fault-${name}-error`}
            />
            <p id={`fault-${name}-error`} aria-live="polite" className="text-sm text-rose-700">
              {state?.errors?.[name]?.[0]}
            </p>
          </div>
        ))}
        <div className="col-span-2">
          <label htmlFor="fault-processingShare" className="block text-sm font-medium text-slate-900">
            Share of slow writes (0 to 1)
          </label>
          <input
            id="fault-processingShare"
            name="processingShare"
            type="number"
            min={0}
            max={1}
            step={0.05}
            defaultValue={1}
            className={input}
            aria-describedby="fault-processingShare-error"
          />
          <p id="fault-processingShare-error" aria-live="polite" className="text-sm text-rose-700">
            {state?.errors?.processingShare?.[0]}
          </p>
        </div>
        {(Object.keys(FAULT_LABELS) as (keyof typeof FAULT_LABELS)[]).map((key) => (
          <div key={key} className="col-span-2">
            <label htmlFor={`fault-${key}`} className="block text-sm font-medium text-slate-900">
              {FAULT_LABELS[key]}
            </label>
            <input
              id={`fault-${key}`}
              name={key}
              type="number"
              min={0}
              max={1}
              step={0.05}
              defaultValue={0}
              className={input}
              aria-describedby={`fault-${key}-error`}
            />
            <p id={`fault-${key}-error`} aria-live="polite" className="text-sm text-rose-700">
              {state?.errors?.[key]?.[0]}
            </p>
          </div>
        ))}
      </div>
      <p className="text-xs text-slate-500">
        Probabilities from 0 to 1 per request. Applying replaces the account’s settings (a profile must fit the
        platform).
      </p>
      <SubmitButton pending={pending} pendingLabel="Applying…">
        Apply faults
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}

function NaiveRetry({
  workspaceId,
  options,
  action,
}: {
  workspaceId: string;
  options: Option[];
  action: SandboxActions['naiveRetryDemo'];
}) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  useRefreshOnSuccess(state, queryKeys.sandboxTimeline(workspaceId));
  return (
    <form onSubmit={onSubmit} className={card} aria-labelledby="naive-retry">
      <h2 id="naive-retry" className="text-base font-semibold">
        Naive retry demo
      </h2>
      <p className="text-sm text-slate-600">
        Publishes once with a 2 s timeout and, like a naive client, sends it again on anything but success. On Mastodon
        (no shared Idempotency-Key) the retry is a second post; on X the identical text happens to hit X’s duplicate
        rule (with the <code>x-nodedupe</code> profile it is a second post too).
      </p>
      <AccountSelect
        id="naive-account"
        options={[...options].sort((a, b) => Number(a.provider === 'x') - Number(b.provider === 'x'))}
      />
      <SubmitButton variant="secondary" pending={pending} pendingLabel="Running…">
        Run naive retry demo
      </SubmitButton>
      <div role="status" aria-live="polite" aria-label="Naive retry result">
        {state?.data ? (
          <div className="space-y-2">
            <ul className="space-y-1">
              {state.data.attempts.map((a, i) => (
                <Attempt key={i} attempt={a} label={`Attempt ${i + 1}`} />
              ))}
            </ul>
            <p className={`text-sm font-semibold ${state.data.copies > 1 ? 'text-rose-700' : 'text-slate-900'}`}>
              The platform now holds {state.data.copies} {state.data.copies === 1 ? 'copy' : 'copies'} of “
              {state.data.text}”.
            </p>
          </div>
        ) : (
          <p className="text-sm text-rose-700">{state?.message}</p>
        )}
      </div>
    </form>
  );
}

function RevokeTokens({
  workspaceId,
  options,
  action,
}: {
  workspaceId: string;
  options: Option[];
  action: SandboxActions['revokeTokens'];
}) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  useRefreshOnSuccess(state, queryKeys.accounts(workspaceId));
  return (
    <form onSubmit={onSubmit} className={card} aria-labelledby="revoke-tokens">
      <h2 id="revoke-tokens" className="text-base font-semibold">
        Revoke tokens
      </h2>
      <p className="text-sm text-slate-600">
        As a user removing the app on the platform: every token of the account stops working. Its next publish is
        refused (401), the account asks for a reconnect and its posts are held until then.
      </p>
      <AccountSelect id="revoke-account" options={options} />
      <SubmitButton variant="danger" pending={pending} pendingLabel="Revoking…">
        Revoke tokens
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
