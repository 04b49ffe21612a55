'use client';

import { useQuery } from '@tanstack/react-query';
import { fetchSandboxTimeline } from '@/app/(dashboard)/sandbox/actions';

export const sandboxTimelineKey = (workspaceId: string) => ['sandbox-timeline', workspaceId] as const;

/** The live timeline: polled, because faults and the publisher change it from elsewhere. */
export function useSandboxTimeline(workspaceId: string) {
  return useQuery({ queryKey: sandboxTimelineKey(workspaceId), queryFn: () => fetchSandboxTimeline(), refetchInterval: 1_500 });
}
