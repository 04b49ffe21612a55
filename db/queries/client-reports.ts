import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { clientReportSettings } from '../schema';
import { rows } from './deliveries/rows';

// The client report (docs/analytics.md#the-client-report): its settings (logo, monthly recipient) and the monthly
// sends, once per workspace and month (client_reports_workspace_period_uq).

export async function getClientReportSettings(db: Executor, params: { workspaceId: string }) {
  const [row] = await db
    .select({
      toAddress: clientReportSettings.toAddress,
      logo: clientReportSettings.logo,
      logoType: clientReportSettings.logoType,
      updatedAt: clientReportSettings.updatedAt,
    })
    .from(clientReportSettings)
    .where(eq(clientReportSettings.workspaceId, params.workspaceId));
  return row ?? null;
}

/** Sets the monthly report's recipient (null: none), keeping the logo. */
export async function setClientReportRecipient(
  db: Executor,
  params: { workspaceId: string; toAddress: string | null; userId: string },
) {
  await db
    .insert(clientReportSettings)
    .values({ workspaceId: params.workspaceId, toAddress: params.toAddress, updatedByUserId: params.userId })
    .onConflictDoUpdate({
      target: clientReportSettings.workspaceId,
      set: { toAddress: params.toAddress, updatedByUserId: params.userId, updatedAt: new Date() },
    });
}

/** Sets (or, with null, removes) the logo, keeping the recipient. */
export async function setClientReportLogo(
  db: Executor,
  params: { workspaceId: string; logo: { bytes: Buffer; type: 'image/png' | 'image/jpeg' } | null; userId: string },
) {
  const values = { logo: params.logo?.bytes ?? null, logoType: params.logo?.type ?? null };
  await db
    .insert(clientReportSettings)
    .values({ workspaceId: params.workspaceId, ...values, updatedByUserId: params.userId })
    .onConflictDoUpdate({
      target: clientReportSettings.workspaceId,
      set: { ...values, updatedByUserId: params.userId, updatedAt: new Date() },
    });
}

/** Workspaces with a monthly recipient, their zone and address (the client-reports job). */
export async function listScheduledClientReports(db: Executor) {
  return rows<{ workspaceId: string; timeZone: string; toAddress: string }>(
    await db.execute(sql`
      select s.workspace_id as "workspaceId", w.time_zone as "timeZone", s.to_address as "toAddress"
      from client_report_settings s join workspaces w on w.id = s.workspace_id
      where s.to_address is not null and w.deleted_at is null`),
  );
}

/**
 * The month's report and its email, once: the client_reports row (client_reports_workspace_period_uq picks one
 * winner however many jobs race) and its notification send in the same statement. Null when that month's report
 * exists already.
 */
export async function enqueueClientReport(
  db: Executor,
  params: { workspaceId: string; period: string; toAddress: string },
): Promise<string | null> {
  const [row] = rows<{ id: string }>(
    await db.execute(sql`
      with report as (
        insert into client_reports (workspace_id, period, to_address)
        values (${params.workspaceId}, ${params.period}, ${params.toAddress})
        on conflict (workspace_id, period) do nothing
        returning id, workspace_id
      )
      insert into notification_sends (workspace_id, key, channel, client_report_id, status, next_attempt_at)
      select workspace_id, 'client-report:' || id::text, 'email', id, 'pending', now() from report
      returning client_report_id as id`),
  );
  return row?.id ?? null;
}

/** The reports sent so far, newest first (Settings → Client report). */
export async function listClientReports(db: Executor, params: { workspaceId: string; limit: number }) {
  return rows<{ period: string; toAddress: string; createdAt: string; status: string | null }>(
    await db.execute(sql`
      select r.period, r.to_address as "toAddress", to_json(r.created_at)#>>'{}' as "createdAt", s.status
      from client_reports r left join notification_sends s on s.client_report_id = r.id
      where r.workspace_id = ${params.workspaceId}
      order by r.period desc limit ${params.limit}`),
  );
}
