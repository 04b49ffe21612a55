'use client';

import { useActionState } from 'react';
import { Badge } from '@/components/ui/badge';
import { LocalTime } from '@/components/ui/local-time';
import { SubmitButton } from '@/components/ui/submit-button';
import type { ActionState, FormAction } from '@/lib/auth/action';

export type SessionView = {
  id: string;
  device: string;
  address: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
};

/** The caller's sessions, this device first; each other one can be signed out on its own. */
export function SessionList({
  sessions,
  signOutOne,
  signOutOthers,
}: {
  sessions: SessionView[];
  signOutOne: FormAction;
  signOutOthers: () => Promise<ActionState>;
}) {
  const [state, othersAction, pending] = useActionState(signOutOthers, undefined);
  const others = sessions.filter((s) => !s.current).length;
  return (
    <div>
      <ul role="list" aria-label="Sessions" className="divide-y divide-slate-200 rounded-md ring-1 ring-slate-200">
        {sessions.map((s) => (
          <SessionRow key={s.id} session={s} action={signOutOne} />
        ))}
      </ul>
      <form action={othersAction} className="mt-4">
        <SubmitButton variant="secondary" pending={pending} pendingLabel="Signing out…" disabled={others === 0}>
          Sign out everywhere else
        </SubmitButton>
        {state?.message && (
          <p role="status" className={`mt-2 text-sm ${state.ok ? 'text-emerald-700' : 'text-rose-700'}`}>
            {state.message}
          </p>
        )}
      </form>
    </div>
  );
}

function SessionRow({ session, action }: { session: SessionView; action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const labelId = `session-${session.id}`;
  return (
    <li aria-labelledby={labelId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
      <div>
        <p id={labelId} className="font-medium">
          {session.device} {session.current && <Badge tone="green">This device</Badge>}
        </p>
        <p className="text-slate-600">
          {session.address} · signed in <LocalTime iso={session.createdAt} /> · last seen{' '}
          <LocalTime iso={session.lastSeenAt} />
        </p>
      </div>
      {!session.current && (
        <form action={formAction}>
          <input type="hidden" name="sessionId" value={session.id} />
          <SubmitButton
            variant="secondary"
            pending={pending}
            pendingLabel="Signing out…"
            aria-label={`Sign out ${session.device}, ${session.address}`}
          >
            Sign out
          </SubmitButton>
        </form>
      )}
      {state?.message && !state.ok && (
        <p role="alert" className="w-full text-xs text-rose-700">
          {state.message}
        </p>
      )}
    </li>
  );
}
