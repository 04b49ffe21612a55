import type { Database } from '@/db/client';
import { workspaceTimeline, type TimelineAccount } from '@/lib/sandbox/demo';
import { toJson, type Json } from './json';

export type SandboxTimelineAccount = Json<TimelineAccount>;

/** The sandbox page's live timeline; any member may read it; empty when the sandbox is switched off. */
export async function readSandboxTimeline(
  db: Database,
  params: { workspaceId: string; encryptionKey: string; sandboxEnabled: boolean },
): Promise<SandboxTimelineAccount[]> {
  if (!params.sandboxEnabled) return [];
  return toJson(await workspaceTimeline(db, { workspaceId: params.workspaceId, encryptionKey: params.encryptionKey }));
}
