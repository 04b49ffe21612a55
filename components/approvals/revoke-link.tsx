'use client';

import { useActionState } from 'react';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

/** Revokes a client link at once: its page answers "Link revoked" from then on. */
export function RevokeApprovalLink({ action, linkId, label }: { action: FormAction; linkId: string; label: string }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  return (
    <form action={formAction} className="flex items-center gap-2">
      <input type="hidden" name="linkId" value={linkId} />
      <SubmitButton pending={pending} pendingLabel="Revoking…" variant="secondary" aria-label={`Revoke ${label}`}>
        Revoke
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
