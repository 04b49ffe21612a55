import { sql } from 'drizzle-orm';
import type { Executor } from '../../client';

export type SchedulingStatus = 'scheduled' | 'awaiting_approval';

/**
 * The workspace's approval rule, the one place every path that schedules deliveries asks (compose, API, CSV import,
 * request → schedule, draft → schedule, calendar move, slot "next"): `awaiting_approval` while "Posts need approval"
 * is on, else `scheduled`. FOR SHARE holds the workspace row until the caller commits, so a toggle waits for this
 * transaction (or this one sees its commit) instead of slipping between the read and the insert.
 */
export async function schedulingStatus(db: Executor, params: { workspaceId: string }): Promise<SchedulingStatus> {
  const [row] = await db.execute<{ required: boolean }>(sql`
    select approval_required as required from workspaces where id = ${params.workspaceId} for share`);
  return row?.required ? 'awaiting_approval' : 'scheduled';
}
