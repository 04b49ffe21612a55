'use client';

import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import { useKeptFormAction } from '@/components/ui/use-kept-form-action';
import { useRefreshOnSuccess } from '@/components/ui/use-refresh-on-success';
import type { FormAction } from '@/lib/auth/action';
import { PROVIDER_META, PROVIDER_NAMES } from '@/lib/providers/catalog';
import type { ProviderName } from '@/lib/providers/types';
import { queryKeys } from '@/lib/query/keys';

export type ConnectActions = { connectSandbox: FormAction; connect: FormAction };

const card = 'space-y-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200';

/** Admins connect accounts here; every form is a server action that checks the role again. */
export function ConnectAccounts({
  workspaceId,
  sandboxEnabled,
  oauthConfigured = {},
  actions,
}: {
  workspaceId: string;
  sandboxEnabled: boolean;
  /** Networks whose real OAuth client is set up on this server (booleans only: no client id or secret here). */
  oauthConfigured?: Partial<Record<ProviderName, boolean>>;
  actions: ConnectActions;
}) {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      {PROVIDER_NAMES.filter((p) => PROVIDER_META[p].connect.oauth).map((p) => (
        <ConnectWithOAuth
          key={p}
          provider={p}
          configured={oauthConfigured[p] === true}
          sandboxEnabled={sandboxEnabled}
        />
      ))}
      {sandboxEnabled && <ConnectSandbox workspaceId={workspaceId} action={actions.connectSandbox} />}
      {PROVIDER_NAMES.filter((p) => PROVIDER_META[p].connect.fields.length > 0).map((p) => (
        <ConnectWithFields key={p} provider={p} workspaceId={workspaceId} action={actions.connect} />
      ))}
    </div>
  );
}

const linkButton =
  'inline-flex items-center justify-center rounded-md px-3.5 py-2 text-sm font-semibold shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2';

/**
 * A network that connects through its own sign-in (OAuth): plain links to the start route, which checks the
 * admin again on the server and sends the browser to the network's consent page (or the sandbox's).
 */
function ConnectWithOAuth({
  provider,
  configured,
  sandboxEnabled,
}: {
  provider: ProviderName;
  configured: boolean;
  sandboxEnabled: boolean;
}) {
  const { label } = PROVIDER_META[provider];
  return (
    <section className={card} aria-labelledby={`oauth-${provider}`}>
      <h2 id={`oauth-${provider}`} className="text-base font-semibold">
        Connect with {label}
      </h2>
      <p className="text-sm text-slate-600">
        Sign in on {label} and allow Semel to post; every account the sign-in can publish as is connected. Tokens are
        stored encrypted and renewed before they expire.
      </p>
      <div className="flex flex-wrap gap-2">
        {configured && (
          <a
            href={`/api/oauth/${provider}/start`}
            className={`${linkButton} bg-indigo-600 text-white hover:bg-indigo-500`}
          >
            Connect with {label}
          </a>
        )}
        {sandboxEnabled && (
          <a
            href={`/api/oauth/${provider}/start?sandbox=1`}
            className={`${linkButton} bg-white text-slate-900 ring-1 ring-inset ring-slate-300 hover:bg-slate-50`}
          >
            Connect with {label} (sandbox)
          </a>
        )}
      </div>
      {!configured && (
        <p className="text-xs text-slate-500">
          Sign-in with the real {label} is not set up on this server: its OAuth client id is blank.
        </p>
      )}
    </section>
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
        {PROVIDER_NAMES.map((p, i) => (
          <Button
            key={p}
            type="submit"
            name="provider"
            value={p}
            variant={i === 0 ? undefined : 'secondary'}
            disabled={pending}
          >
            Connect sandbox {PROVIDER_META[p].label} account
          </Button>
        ))}
      </div>
      <FormStatus state={state} />
    </form>
  );
}

/** A network connected with pasted credentials (a token, an app password): its fields come from the registry. */
function ConnectWithFields({
  provider,
  workspaceId,
  action,
}: {
  provider: ProviderName;
  workspaceId: string;
  action: FormAction;
}) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  useRefreshOnSuccess(state, queryKeys.accounts(workspaceId));
  const { label, connect } = PROVIDER_META[provider];
  return (
    <form onSubmit={onSubmit} className={card} aria-labelledby={`connect-${provider}`}>
      <h2 id={`connect-${provider}`} className="text-base font-semibold">
        {label} account
      </h2>
      <input type="hidden" name="provider" value={provider} />
      {connect.fields.map((field) => (
        <TextField
          key={field.name}
          id={`${provider}-${field.name}`}
          name={field.name}
          label={field.label}
          type={field.type === 'password' ? 'password' : undefined}
          autoComplete={field.autoComplete}
          defaultValue={field.defaultValue}
          placeholder={field.placeholder}
          error={state?.errors?.[field.name]?.[0]}
          description={
            field.type === 'password' ? 'Stored encrypted; only its last four characters are ever shown.' : field.help
          }
        />
      ))}
      <SubmitButton pending={pending} pendingLabel="Checking…">
        Check and connect {label}
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
