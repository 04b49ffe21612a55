'use client';

import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ActionState } from '@/lib/auth/action';

/** After a server action succeeds, refetch the queries it changed. */
export function useRefreshOnSuccess(state: ActionState<unknown> | undefined, queryKey: QueryKey) {
  const queryClient = useQueryClient();
  const key = JSON.stringify(queryKey);
  useEffect(() => {
    if (state?.ok) void queryClient.invalidateQueries({ queryKey: JSON.parse(key) as QueryKey });
  }, [state, queryClient, key]);
}
