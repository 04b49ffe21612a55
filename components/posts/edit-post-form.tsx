'use client';

import { useActionState, useCallback, useState } from 'react';
import { partMediaIdsValue, ThreadParts, type ThreadPart } from '@/components/compose/thread-parts';
import type { DraftMedia } from '@/components/compose/draft-parts';
import { FieldError, TextAreaField, TextField } from '@/components/ui/field';
import { SubmitButton } from '@/components/ui/submit-button';
import { useTimeZone } from '@/components/ui/use-time-zone';
import type { FormAction } from '@/lib/auth/action';
import type { ProviderName } from '@/lib/providers/types';

type Account = { id: string; handle: string; provider: ProviderName };
type Props = {
  postId: string;
  text: string;
  /** A thread's parts with their images: edited (replaced) as a whole instead of the text. */
  parts?: { text: string; media: DraftMedia[] }[];
  accounts: Account[];
  targets: string[];
  action: FormAction;
  /** The workspace asks for alt text on every image (a part's new images). */
  requireAltText?: boolean;
};

export function EditPostForm({ postId, text, parts, accounts, targets, action, requireAltText = true }: Props) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const timeZone = useTimeZone();
  const [threadParts, setThreadParts] = useState<ThreadPart[]>(() =>
    (parts ?? []).map((p, i) => ({ id: `part-${i}`, text: p.text, media: p.media })),
  );
  const [chosen, setChosen] = useState(targets);
  const [adding, setAdding] = useState<Record<string, boolean>>({});
  const setPartPending = useCallback(
    (partId: string, busy: boolean) =>
      setAdding((current) => (current[partId] === busy ? current : { ...current, [partId]: busy })),
    [],
  );
  const uploadsPending = Object.values(adding).some(Boolean);
  return (
    <form action={formAction} className="space-y-3 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-base font-semibold">Edit before it goes out</h2>
      <input type="hidden" name="postId" value={postId} />
      <input type="hidden" name="timeZone" value={timeZone} />
      {parts ? (
        <>
          {/* Each part's images go with it, also when the parts are reordered. */}
          <input type="hidden" name="partMediaIds" value={partMediaIdsValue(threadParts)} />
          <ThreadParts
            idPrefix="edit-part"
            parts={threadParts}
            onChange={setThreadParts}
            providers={[...new Set(accounts.filter((a) => chosen.includes(a.id)).map((a) => a.provider))]}
            errors={state?.errors}
            media={{
              requireAltText,
              selected: accounts.filter((a) => chosen.includes(a.id)),
              onPendingChange: setPartPending,
            }}
          />
        </>
      ) : (
        <TextAreaField
          id="edit-text"
          name="text"
          label="Text"
          rows={4}
          defaultValue={text}
          error={state?.errors?.text?.[0]}
        />
      )}
      <fieldset aria-describedby="edit-accounts-error">
        <legend className="text-sm font-medium">Accounts</legend>
        <div className="mt-1 flex flex-wrap gap-3 text-sm">
          {accounts.map((a) => (
            <label key={a.id} className="flex items-center gap-1.5">
              <input
                type="checkbox"
                name="accountIds"
                value={a.id}
                checked={chosen.includes(a.id)}
                onChange={(e) =>
                  setChosen((ids) => (e.target.checked ? [...ids, a.id] : ids.filter((id) => id !== a.id)))
                }
              />
              {a.handle}
            </label>
          ))}
        </div>
        <FieldError id="edit-accounts" error={state?.errors?.accountIds?.[0]} />
      </fieldset>
      <TextField
        id="edit-time"
        name="localDateTime"
        type="datetime-local"
        label={`New date and time (${timeZone}) — leave empty to keep`}
        className="max-w-xs"
        error={state?.errors?.localDateTime?.[0] ?? state?.errors?.scheduledAt?.[0]}
      />
      <SubmitButton pending={pending || uploadsPending} pendingLabel={uploadsPending ? 'Adding images…' : 'Saving…'}>
        Save changes
      </SubmitButton>
      {state?.message && (
        <p role="status" className={`text-sm ${state.ok ? 'text-emerald-700' : 'text-rose-700'}`}>
          {state.message}
        </p>
      )}
    </form>
  );
}
