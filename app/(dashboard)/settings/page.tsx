import Link from 'next/link';
import { AltTextForm } from '@/components/settings/alt-text-form';
import { LatenessForm } from '@/components/settings/lateness-form';
import { ToggleSettingForm } from '@/components/settings/toggle-setting-form';
import { MemberRow } from '@/components/settings/member-row';
import { RenameWorkspaceForm } from '@/components/settings/rename-workspace-form';
import { TimeZoneForm } from '@/components/settings/time-zone-form';
import { getDb } from '@/db/client';
import { getRequireAltText } from '@/db/queries/media';
import { getWorkspaceSettings, listMembers } from '@/db/queries/workspaces';
import { PageHeader } from '@/components/ui/page-header';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { DeleteWorkspaceForm } from '@/components/teams/delete-workspace-form';
import { InvitationRow } from '@/components/teams/invitation-row';
import { InviteMemberForm } from '@/components/teams/invite-member-form';
import { LeaveWorkspaceButton } from '@/components/teams/leave-workspace-button';
import { listOpenInvitations } from '@/db/queries/invitations';
import {
  changeMemberRoleAction,
  inviteMemberAction,
  leaveWorkspaceAction,
  removeMemberAction,
  resendInvitationAction,
  revokeInvitationAction,
} from './members-actions';
import { deleteWorkspaceAction } from './workspace-actions';
import {
  renameWorkspaceAction,
  setLatenessLimitAction,
  setApprovalRequiredAction,
  setRequireAltTextAction,
  setWorkspaceTimeZoneAction,
} from './actions';
import { getWorkspaceApproval } from '@/db/queries/approvals';
import { createRequestLinkAction, revokeRequestLinkAction } from './request-links-actions';
import { RequestLinks } from '@/components/settings/request-links';
import { listActiveRequestLinks } from '@/db/queries/requests';
import { ClientReportForm } from '@/components/settings/client-report-form';
import { getClientReportSettings, listClientReports } from '@/db/queries/client-reports';
import { setClientReportLogoAction, setClientReportRecipientAction } from './client-report-actions';

export const metadata = { title: 'Settings' };

/** The runtime's IANA zones, with UTC and the current choice always among them. */
function timeZoneChoices(current: string): string[] {
  return [...new Set(['UTC', current, ...Intl.supportedValuesOf('timeZone')])];
}

export default async function SettingsPage() {
  const { workspace, role, user } = await requirePageWorkspace();
  const admin = can(role, 'manageWorkspace');
  const manageMembers = can(role, 'manageMembers');
  const [clientReport, clientReports] = await Promise.all([
    getClientReportSettings(getDb(), { workspaceId: workspace.id }),
    listClientReports(getDb(), { workspaceId: workspace.id, limit: 6 }),
  ]);
  const [members, settings, requireAltText, approval, requestLinks, invitations] = await Promise.all([
    listMembers(getDb(), { workspaceId: workspace.id }),
    getWorkspaceSettings(getDb(), { workspaceId: workspace.id }),
    getRequireAltText(getDb(), { workspaceId: workspace.id }),
    getWorkspaceApproval(getDb(), { workspaceId: workspace.id }),
    admin ? listActiveRequestLinks(getDb(), { workspaceId: workspace.id }) : Promise.resolve([]),
    manageMembers ? listOpenInvitations(getDb(), { workspaceId: workspace.id }) : Promise.resolve([]),
  ]);
  return (
    <>
      <PageHeader title="Settings" description="Workspace settings, members and API keys." />
      <section aria-labelledby="general" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="general" className="mb-4 text-base font-semibold">
          General
        </h2>
        <RenameWorkspaceForm
          name={workspace.name}
          canEdit={can(role, 'manageWorkspace')}
          action={renameWorkspaceAction}
        />
        <LatenessForm
          minutes={Math.round((settings?.latenessLimitSeconds ?? 3600) / 60)}
          canEdit={can(role, 'manageWorkspace')}
          action={setLatenessLimitAction}
        />
        <TimeZoneForm
          timeZone={settings?.timeZone ?? 'UTC'}
          zones={timeZoneChoices(settings?.timeZone ?? 'UTC')}
          canEdit={can(role, 'manageWorkspace')}
          action={setWorkspaceTimeZoneAction}
        />
        <AltTextForm
          requireAltText={requireAltText}
          canEdit={can(role, 'manageWorkspace')}
          action={setRequireAltTextAction}
        />
        <ToggleSettingForm
          name="approvalRequired"
          checked={approval?.approvalRequired ?? false}
          canEdit={can(role, 'manageWorkspace')}
          action={setApprovalRequiredAction}
          label="Posts need approval"
          description="New and edited posts wait in “Awaiting approval” and are never published until an admin (Approvals) or your client (a link) approves them."
          submitLabel="Save approval rule"
        />
      </section>
      <section aria-labelledby="client-report" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="client-report" className="mb-4 text-base font-semibold">
          Client report
        </h2>
        <ClientReportForm
          toAddress={clientReport?.toAddress ?? null}
          hasLogo={!!clientReport?.logo}
          canEdit={admin}
          recipientAction={setClientReportRecipientAction}
          logoAction={setClientReportLogoAction}
        />
        {clientReports.length > 0 && (
          <ul aria-label="Monthly reports sent" className="mt-4 space-y-1 text-sm text-slate-700">
            {clientReports.map((r) => (
              <li key={r.period}>
                {r.period}: to {r.toAddress} (
                {r.status === 'sent' ? 'sent' : r.status === 'failed' ? 'could not be sent' : 'sending'})
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="members" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="members" className="mb-2 text-base font-semibold">
          Members
        </h2>
        <p className="mb-3 text-sm text-slate-600">
          Viewers read; managers also compose and schedule; admins also manage accounts, members and review.
        </p>
        <ul role="list" aria-label="Members" className="divide-y divide-slate-200 rounded-md ring-1 ring-slate-200">
          {members.map((m) => (
            <MemberRow
              key={m.userId}
              member={m}
              canEdit={manageMembers}
              action={changeMemberRoleAction}
              remove={m.userId === user.id ? undefined : removeMemberAction}
            />
          ))}
        </ul>
        {manageMembers && (
          <>
            <h3 className="mt-6 text-sm font-semibold">Invite a member</h3>
            <InviteMemberForm action={inviteMemberAction} />
            {invitations.length > 0 && (
              <ul
                role="list"
                aria-label="Invitations"
                className="mt-4 divide-y divide-slate-200 rounded-md ring-1 ring-slate-200"
              >
                {invitations.map((i) => (
                  <InvitationRow
                    key={i.id}
                    invitation={{
                      id: i.id,
                      email: i.email,
                      role: i.role,
                      expiresAt: i.expiresAt.toISOString(),
                      expired: i.expired,
                    }}
                    resend={resendInvitationAction}
                    revoke={revokeInvitationAction}
                  />
                ))}
              </ul>
            )}
          </>
        )}
        <div className="mt-6">
          <LeaveWorkspaceButton action={leaveWorkspaceAction} />
        </div>
      </section>
      {admin && (
        <section
          aria-labelledby="request-link"
          className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
        >
          <h2 id="request-link" className="mb-2 text-base font-semibold">
            Request link
          </h2>
          <p className="mb-4 text-sm text-slate-600">
            Your client sends post requests through this link, without an account: each lands in Drafts with their name,
            for you to edit and schedule. Revoke a link to close it.
          </p>
          <RequestLinks
            links={requestLinks.map((l) => ({ ...l, createdAt: l.createdAt.toISOString() }))}
            createAction={createRequestLinkAction}
            revokeAction={revokeRequestLinkAction}
          />
        </section>
      )}
      <section aria-labelledby="slots" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="slots" className="mb-2 text-base font-semibold">
          Posting slots
        </h2>
        <p className="text-sm text-slate-600">
          Weekly times per account, in its own time zone: &ldquo;Add to queue&rdquo; takes the next free one.
        </p>
        <Link
          href="/settings/slots"
          className="mt-3 inline-block text-sm font-semibold text-indigo-700 hover:underline"
        >
          Open posting slots →
        </Link>
      </section>
      <section aria-labelledby="links" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="links" className="mb-2 text-base font-semibold">
          Links
        </h2>
        <p className="text-sm text-slate-600">UTM tags and short links per network, UTM presets, and clicks.</p>
        <Link
          href="/settings/links"
          className="mt-3 inline-block text-sm font-semibold text-indigo-700 hover:underline"
        >
          Open link settings →
        </Link>
      </section>
      <section aria-labelledby="api" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="api" className="mb-2 text-base font-semibold">
          API
        </h2>
        <p className="text-sm text-slate-600">API keys and how to create posts from your own tools, exactly once.</p>
        <Link href="/settings/api" className="mt-3 inline-block text-sm font-semibold text-indigo-700 hover:underline">
          Open API settings →
        </Link>
      </section>
      <section aria-labelledby="webhooks" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="webhooks" className="mb-2 text-base font-semibold">
          Webhooks
        </h2>
        <p className="text-sm text-slate-600">Signed events to your own systems when deliveries settle.</p>
        <Link
          href="/settings/webhooks"
          className="mt-3 inline-block text-sm font-semibold text-indigo-700 hover:underline"
        >
          Open webhooks →
        </Link>
      </section>
      <section aria-labelledby="saved-replies" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="saved-replies" className="mb-2 text-base font-semibold">
          Saved replies
        </h2>
        <p className="text-sm text-slate-600">
          Answers the team sends from the inbox, with variables like {'{first_name}'}.
        </p>
        <Link
          href="/settings/saved-replies"
          className="mt-3 inline-block text-sm font-semibold text-indigo-700 hover:underline"
        >
          Open saved replies →
        </Link>
      </section>
      <section aria-labelledby="notifications" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="notifications" className="mb-2 text-base font-semibold">
          Notifications
        </h2>
        <p className="text-sm text-slate-600">Your email preference, and the workspace&rsquo;s Slack webhook.</p>
        <Link
          href="/settings/notifications"
          className="mt-3 inline-block text-sm font-semibold text-indigo-700 hover:underline"
        >
          Open notifications →
        </Link>
      </section>
      <section aria-labelledby="security" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="security" className="mb-2 text-base font-semibold">
          Security
        </h2>
        <p className="text-sm text-slate-600">Where you are signed in: sign out one session, or all of them.</p>
        <Link
          href="/settings/security"
          className="mt-3 inline-block text-sm font-semibold text-indigo-700 hover:underline"
        >
          Open security →
        </Link>
      </section>
      {admin && (
        <section aria-labelledby="delete" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-rose-200">
          <h2 id="delete" className="mb-2 text-base font-semibold text-rose-800">
            Delete workspace
          </h2>
          <p className="mb-3 text-sm text-slate-600">
            Cancels its scheduled posts, revokes its API keys and removes it for every member at once; its posts,
            accounts and history are then deleted in the background. This cannot be undone.
          </p>
          <DeleteWorkspaceForm name={workspace.name} action={deleteWorkspaceAction} />
        </section>
      )}
    </>
  );
}
