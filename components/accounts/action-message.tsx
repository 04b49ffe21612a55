import type { ActionState } from '@/lib/auth/action';

export function ActionMessage({ state }: { state: ActionState<unknown> | undefined }) {
  return (
    <p role="status" aria-live="polite" className={`text-sm ${state?.ok ? 'text-emerald-700' : 'text-rose-700'}`}>
      {state?.message}
    </p>
  );
}
