'use client';

import Link from 'next/link';
import { Field, fieldAria, inputClass, TextField } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import { useKeptFormAction } from '@/components/ui/use-kept-form-action';
import type { FormAction } from '@/lib/auth/action';

type Props = { action: FormAction<{ email: string }>; zones: string[] };

/** The first-run form: the setup token, the admin, the workspace. Typed values stay when a field is refused. */
export function SetupForm({ action, zones }: Props) {
  const [state, onSubmit, pending] = useKeptFormAction(action);
  const error = (field: string) => state?.errors?.[field]?.[0];
  if (state?.ok) {
    return (
      <div className="space-y-4">
        <FormStatus state={state} successOnly />
        <Link href="/signin" className="inline-block text-sm font-medium text-indigo-700 underline">
          Go to sign in
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <TextField
        id="setupToken"
        name="setupToken"
        label="Setup token"
        autoComplete="off"
        spellCheck={false}
        error={error('setupToken')}
        description="Printed in the server log at start, and by npm run setup."
      />
      <fieldset className="space-y-4">
        <legend className="text-sm font-semibold text-slate-900">First admin</legend>
        <TextField id="name" name="name" label="Your name" autoComplete="name" error={error('name')} />
        <TextField id="email" name="email" type="email" label="Email" autoComplete="email" error={error('email')} />
        <TextField
          id="password"
          name="password"
          type="password"
          label="Password"
          autoComplete="new-password"
          error={error('password')}
          description="At least 12 characters; common passwords are refused."
        />
      </fieldset>
      <fieldset className="space-y-4">
        <legend className="text-sm font-semibold text-slate-900">First workspace</legend>
        <TextField id="workspaceName" name="workspaceName" label="Workspace name" error={error('workspaceName')} />
        <TextField
          id="slug"
          name="slug"
          label="Slug"
          autoCapitalize="none"
          spellCheck={false}
          error={error('slug')}
          description="Lowercase letters, digits and hyphens, e.g. acme."
        />
        <Field id="timeZone" label="Time zone" error={error('timeZone')}>
          <select
            {...fieldAria('timeZone', { error: error('timeZone') })}
            name="timeZone"
            defaultValue="UTC"
            className={inputClass}
          >
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </Field>
      </fieldset>
      <FormStatus state={state} />
      <SubmitButton pending={pending} pendingLabel="Setting up…" className="w-full">
        Set up Semel
      </SubmitButton>
    </form>
  );
}
