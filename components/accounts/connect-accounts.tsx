'use client';

import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import { useKeptFormAction } from '@/components/ui/use-kept-form-action';
import { useRefreshOnSuccess } from '@/components/ui/use-refresh-on-success';
import type { FormAction } from '@/lib/auth/action';
import { queryKeys } from '@/lib/query/keys';

export type ConnectActions = { connectSandbox: FormAction; connectX: FormAction; connectMastodon: FormAction };

const card = 'space-y-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200';

/** Admins connect accounts here; every form is a server action that checks the role again. */
export function ConnectAccounts({
  workspaceId,
  sandboxEnabled,
  actions,
}: {
  workspaceId: string;
  sandboxEnabled: boolean;
  actions: ConnectActions;
}) {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      {sandboxEnabled && <ConnectSandbox workspaceId={workspaceId} action={actions.connectSandbox} />}
      <ConnectX workspaceId={workspaceId} action={actions.connectX} />
      <ConnectMastodon workspaceId={workspaceId} action={actions.connectMastodon} />
    </div>
  );
}

function ConnectSandbox({ workspaceId, action }: { workspaceId: string; action: FormAction }) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  useRefreshOnSuccess(state, queryKeys.accounts(workspaceId));
  return (
    <form onSubmit={onSubmit} className={card} aria-labelledby="connect-sandbox">
      <h2 id="connect-sandbox" className="text-base font-semibold">
        Sandbox account
      </h2>
      <p className="text-sm text-slate-600">
        A demo account on the built-in sandbox network, with its own token. One click, no platform sign-up.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="provider" value="x" disabled={pending}>
          Connect sandbox X account
        </Button>
        <Button type="submit" name="provider" value="mastodon" variant="secondary" disabled={pending}>
          Connect sandbox Mastodon account
        </Button>
      </div>
      <FormStatus state={state} />
    </form>
  );
}

function ConnectX({ workspaceId, action }: { workspaceId: string; action: FormAction }) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  useRefreshOnSuccess(state, queryKeys.accounts(workspaceId));
  return (
    <form onSubmit={onSubmit} className={card} aria-labelledby="connect-x">
      <h2 id="connect-x" className="text-base font-semibold">
        X account
      </h2>
      <TextField
        id="x-base-url"
        name="baseUrl"
        label="API base URL"
        defaultValue="https://api.x.com"
        error={state?.errors?.baseUrl?.[0]}
      />
      <TextField
        id="x-user-id"
        name="platformUserId"
        label="User id"
        inputMode="numeric"
        autoComplete="off"
        error={state?.errors?.platformUserId?.[0]}
      />
      <TextField
        id="x-token"
        name="accessToken"
        label="OAuth 2.0 user access token"
        type="password"
        autoComplete="off"
        error={state?.errors?.accessToken?.[0]}
        description="Stored encrypted; only its last four characters are ever shown."
      />
      <SubmitButton pending={pending} pendingLabel="Checking…">
        Check and connect X
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}

function ConnectMastodon({ workspaceId, action }: { workspaceId: string; action: FormAction }) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  useRefreshOnSuccess(state, queryKeys.accounts(workspaceId));
  return (
    <form onSubmit={onSubmit} className={card} aria-labelledby="connect-mastodon">
      <h2 id="connect-mastodon" className="text-base font-semibold">
        Mastodon account
      </h2>
      <TextField
        id="mastodon-instance"
        name="instanceUrl"
        label="Instance URL"
        placeholder="https://mastodon.social"
        error={state?.errors?.instanceUrl?.[0]}
      />
      <TextField
        id="mastodon-token"
        name="accessToken"
        label="Access token"
        type="password"
        autoComplete="off"
        error={state?.errors?.accessToken?.[0]}
        description="Stored encrypted; only its last four characters are ever shown."
      />
      <SubmitButton pending={pending} pendingLabel="Checking…">
        Check and connect Mastodon
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
