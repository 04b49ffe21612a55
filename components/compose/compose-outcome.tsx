import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { LocalTime } from '@/components/ui/local-time';
import type { ActionState } from '@/lib/auth/action';
import type { ComposeResult } from '@/lib/posts/compose-form';

type Props = {
  state: ActionState<ComposeResult> | undefined;
  networkError: boolean;
  pending: boolean;
  /** "Schedule anyway" after the duplicate warning: the same form again, with the warning confirmed. */
  onConfirmDuplicate: (form: HTMLFormElement) => void;
  /** After a key mismatch: a new draft (and key) for a new intent. */
  onStartNew: () => void;
};

/** What the last submission did: scheduled, unreachable (the draft is kept), or refused — with the duplicate warning's choice. */
export function ComposeOutcome({ state, networkError, pending, onConfirmDuplicate, onStartNew }: Props) {
  const result = state?.data;
  return (
    <>
      {state?.ok && result?.ok && (
        <div role="status" className="rounded-md bg-emerald-50 p-4 text-sm text-emerald-900 ring-1 ring-emerald-200">
          <p className="font-semibold">{state.message}</p>
          {result.status === 'awaiting_approval' && (
            <p>Waiting for approval: nothing goes out until an admin or the client approves it.</p>
          )}
          {result.status === 'scheduled' && result.scheduledAt && (
            <p>
              Goes out <LocalTime iso={result.scheduledAt} />.
            </p>
          )}
          <Link href={`/posts/${result.postId}`} className="font-medium underline">
            View the post
          </Link>
        </div>
      )}
      {networkError && (
        <div role="alert" className="rounded-md bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
          Couldn&apos;t reach the server. Your draft is kept — submit again: it will not be scheduled twice.
        </div>
      )}
      {state && !state.ok && (
        <div role="alert" className="rounded-md bg-rose-50 p-4 text-sm text-rose-900 ring-1 ring-rose-200">
          <p>{state.message}</p>
          {result && !result.ok && result.kind === 'possible_duplicate' && (
            <Button
              type="button"
              variant="secondary"
              className="mt-3"
              disabled={pending}
              onClick={(e) => onConfirmDuplicate(e.currentTarget.form!)}
            >
              Schedule anyway
            </Button>
          )}
          {result && !result.ok && result.kind === 'mismatch' && (
            <Button type="button" variant="secondary" className="mt-3" onClick={onStartNew}>
              Start a new post
            </Button>
          )}
        </div>
      )}
    </>
  );
}
