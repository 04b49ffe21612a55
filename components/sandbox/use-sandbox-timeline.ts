'use client';

import { useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/query/get-json';
import { queryKeys, readUrls } from '@/lib/query/keys';
import type { SandboxTimelineAccount } from '@/lib/reads/sandbox-timeline';

/** The live timeline: polled, because faults and the publisher change it from elsewhere. */
export function useSandboxTimeline(workspaceId: string) {
  return useQuery({
    queryKey: queryKeys.sandboxTimeline(workspaceId),
    queryFn: () => getJson<SandboxTimelineAccount[]>(readUrls.sandboxTimeline()),
    refetchInterval: 1_500,
  });
}
