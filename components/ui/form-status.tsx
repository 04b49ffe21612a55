import type { ActionState } from '@/lib/auth/action';

type Props = { state: ActionState<unknown> | undefined; successOnly?: boolean; className?: string };

/** An action's outcome message in a polite live region: green when it worked, red when refused. */
export function FormStatus({ state, successOnly = false, className = 'text-sm' }: Props) {
  if (successOnly)
    return state?.ok ? (
      <p role="status" className={`${className} text-emerald-700`}>
        {state.message}
      </p>
    ) : null;
  return (
    <p role="status" aria-live="polite" className={`${className} ${state?.ok ? 'text-emerald-700' : 'text-rose-700'}`}>
      {state?.message}
    </p>
  );
}
