'use client';

import { useActionState } from 'react';
import { Field, fieldAria, inputClass } from '@/components/ui/field';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Props = {
  toAddress: string | null;
  hasLogo: boolean;
  canEdit: boolean;
  recipientAction: FormAction;
  logoAction: FormAction;
};

/** Where the monthly client report goes, and the logo that heads it. */
export function ClientReportForm({ toAddress, hasLogo, canEdit, recipientAction, logoAction }: Props) {
  const [recipient, recipientForm, recipientPending] = useActionState(recipientAction, undefined);
  const [logo, logoForm, logoPending] = useActionState(logoAction, undefined);
  const recipientError = recipient?.errors?.toAddress?.[0];
  const logoError = logo?.errors?.logo?.[0];
  return (
    <div className="space-y-6">
      <form action={recipientForm} className="space-y-2" noValidate>
        <Field
          id="client-report-to"
          label="Send the monthly report to"
          error={recipientError}
          description="Once a month ends (in the workspace's zone), its client report (every post, how it went out and how it did) is emailed here as a PDF, once. Leave empty for none."
        >
          <div className="flex items-center gap-3">
            <input
              {...fieldAria('client-report-to', { error: recipientError, description: true })}
              name="toAddress"
              type="email"
              autoComplete="email"
              defaultValue={toAddress ?? ''}
              disabled={!canEdit}
              className={`${inputClass} max-w-sm`}
            />
            <SubmitButton pending={recipientPending} pendingLabel="Saving…" disabled={!canEdit}>
              Save recipient
            </SubmitButton>
          </div>
        </Field>
        <FormStatus state={recipient} />
      </form>
      <form action={logoForm} className="space-y-2" noValidate>
        <Field
          id="client-report-logo"
          label="Logo on the report"
          error={logoError}
          description={`PNG, JPEG, GIF or WebP, at most 800 KB. ${hasLogo ? 'A logo is set.' : 'None set: the report shows the workspace name only.'}`}
        >
          <div className="flex flex-wrap items-center gap-3">
            <input
              {...fieldAria('client-report-logo', { error: logoError, description: true })}
              name="logo"
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              disabled={!canEdit}
              className="text-sm"
            />
            <SubmitButton pending={logoPending} pendingLabel="Saving…" disabled={!canEdit}>
              Save logo
            </SubmitButton>
            {hasLogo && (
              <SubmitButton
                pending={logoPending}
                pendingLabel="Saving…"
                disabled={!canEdit}
                name="remove"
                value="1"
                variant="secondary"
              >
                Remove logo
              </SubmitButton>
            )}
          </div>
        </Field>
        <FormStatus state={logo} />
      </form>
    </div>
  );
}
