'use client';

import { useActionState } from 'react';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Invitation = { id: string; email: string; role: string; expiresAt: string; expired: boolean };

/** An open invitation: resend (a new link; the old one stops working) or revoke. */
export function InvitationRow({
  invitation,
  resend,
  revoke,
}: {
  invitation: Invitation;
  resend: FormAction;
  revoke: FormAction;
}) {
  const [resent, resendAction, resending] = useActionState(resend, undefined);
  const [revoked, revokeAction, revoking] = useActionState(revoke, undefined);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
      <span>
        <span className="font-medium">{invitation.email}</span>{' '}
        <span className="text-slate-600">{invitation.role}</span>{' '}
        <span className={invitation.expired ? 'text-rose-700' : 'text-slate-600'}>
          {invitation.expired ? 'expired' : `expires ${invitation.expiresAt.slice(0, 10)}`}
        </span>
      </span>
      <span className="flex items-center gap-2">
        <form action={resendAction}>
          <input type="hidden" name="id" value={invitation.id} />
          <SubmitButton
            variant="secondary"
            pending={resending}
            pendingLabel="Sending…"
            aria-label={`Resend invitation to ${invitation.email}`}
          >
            Resend
          </SubmitButton>
        </form>
        <form action={revokeAction}>
          <input type="hidden" name="id" value={invitation.id} />
          <SubmitButton
            variant="secondary"
            pending={revoking}
            pendingLabel="Revoking…"
            aria-label={`Revoke invitation to ${invitation.email}`}
          >
            Revoke
          </SubmitButton>
        </form>
      </span>
      <FormStatus state={resent ?? revoked} className="w-full text-xs" />
    </li>
  );
}
