'use client';

import { useActionState } from 'react';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Member = { userId: string; email: string; name: string; role: string };

export function MemberRow({
  member,
  canEdit,
  action,
  remove,
}: {
  member: Member;
  canEdit: boolean;
  action: FormAction;
  /** Removing a member (absent for oneself: leaving is its own button). */
  remove?: FormAction;
}) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const [removed, removeAction, removing] = useActionState(
    remove ?? (async () => ({ ok: false, message: 'Not allowed.' })),
    undefined,
  );
  const shown = removed ?? state;
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
      <span>
        <span className="font-medium">{member.name}</span> <span className="text-slate-600">{member.email}</span>
      </span>
      {canEdit ? (
        <form action={formAction} className="flex items-center gap-2">
          <input type="hidden" name="userId" value={member.userId} />
          <label className="sr-only" htmlFor={`role-${member.userId}`}>
            Role of {member.email}
          </label>
          <select
            id={`role-${member.userId}`}
            name="role"
            defaultValue={member.role}
            className="rounded-md border border-slate-300 px-2 py-1"
          >
            <option value="admin">admin</option>
            <option value="manager">manager</option>
            <option value="viewer">viewer</option>
          </select>
          <SubmitButton variant="secondary" pending={pending} pendingLabel="Saving…">
            Save
          </SubmitButton>
        </form>
      ) : (
        <span className="text-slate-700">{member.role}</span>
      )}
      {canEdit && remove && (
        <form action={removeAction}>
          <input type="hidden" name="userId" value={member.userId} />
          <SubmitButton
            variant="secondary"
            pending={removing}
            pendingLabel="Removing…"
            aria-label={`Remove ${member.email}`}
          >
            Remove
          </SubmitButton>
        </form>
      )}
      {shown?.message && (
        <p role="status" className={`w-full text-xs ${shown.ok ? 'text-emerald-700' : 'text-rose-700'}`}>
          {shown.message}
        </p>
      )}
    </li>
  );
}
