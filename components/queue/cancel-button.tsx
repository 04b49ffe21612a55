'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { FormAction } from '@/lib/auth/action';
import { queryKeys } from '@/lib/query/keys';

type Props = { postId: string; label?: string; action: FormAction };

/** Cancel with a confirmation; disabled while pending, and harmless when repeated (the server cancels only what is still scheduled). */
export function CancelButton({ postId, label = 'Cancel', action }: Props) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        variant="secondary"
        disabled={pending}
        aria-label={`${label} post`}
        onClick={async () => {
          if (!window.confirm('Cancel this post? Deliveries already publishing or sent are not affected.')) return;
          setPending(true);
          const data = new FormData();
          data.set('postId', postId);
          try {
            const result = await action(undefined, data);
            setMessage(result.message ?? null);
            await queryClient.invalidateQueries({ queryKey: queryKeys.queues() });
          } catch {
            setMessage('Could not reach the server; try again.');
          } finally {
            setPending(false);
          }
        }}
      >
        {pending ? 'Canceling…' : label}
      </Button>
      {message && (
        <span role="status" className="text-xs text-slate-600">
          {message}
        </span>
      )}
    </span>
  );
}
