'use client';

import { useActionState } from 'react';
import { FormStatus } from '@/components/ui/form-status';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction } from '@/lib/auth/action';

type Props = { requireAltText: boolean; canEdit: boolean; action: FormAction };

/** Settings → General: whether an image may be uploaded without alt text. */
export function AltTextForm({ requireAltText, canEdit, action }: Props) {
  const [state, formAction, pending] = useActionState(action, undefined);
  return (
    <form action={formAction} className="mt-6 space-y-2" noValidate>
      <div className="flex items-start gap-3">
        <input
          id="requireAltText"
          name="requireAltText"
          type="checkbox"
          defaultChecked={requireAltText}
          disabled={!canEdit}
          aria-describedby="requireAltText-description"
          className="mt-1 h-4 w-4"
        />
        <div>
          <label htmlFor="requireAltText" className="text-sm font-medium text-slate-900">
            Require alt text on images
          </label>
          <p id="requireAltText-description" className="text-sm text-slate-600">
            Every uploaded image must describe what it shows, for people using screen readers (the composer and the API
            refuse an image without it).
          </p>
        </div>
      </div>
      <SubmitButton pending={pending} pendingLabel="Saving…" disabled={!canEdit}>
        Save alt text rule
      </SubmitButton>
      <FormStatus state={state} successOnly />
    </form>
  );
}
