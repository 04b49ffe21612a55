import { EmailModeForm, InboxModeForm, SlackWebhookForm } from '@/components/settings/notification-forms';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { getEmailMode, getInboxMode, getSlackWebhookHost } from '@/db/queries/notification-settings';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { getEnv } from '@/lib/env';
import {
  removeSlackWebhookAction,
  saveSlackWebhookAction,
  sendSlackTestAction,
  setEmailModeAction,
  setInboxModeAction,
} from './actions';

export const metadata = { title: 'Notifications' };

export default async function NotificationSettingsPage() {
  const { workspace, user, role } = await requirePageWorkspace();
  const [emailMode, inboxMode, slack] = await Promise.all([
    getEmailMode(getDb(), { workspaceId: workspace.id, userId: user.id }),
    getInboxMode(getDb(), { workspaceId: workspace.id, userId: user.id }),
    getSlackWebhookHost(getDb(), { workspaceId: workspace.id }),
  ]);
  return (
    <>
      <PageHeader
        title="Notifications"
        description={
          getEnv().SMTP_URL
            ? 'Email and Slack, besides the bell.'
            : 'Email and Slack, besides the bell. SMTP_URL is not set: emails are stored on the Outbox page instead of sent.'
        }
      />
      <section aria-labelledby="email" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="email" className="mb-4 text-base font-semibold">
          Your email ({user.email})
        </h2>
        <EmailModeForm emailMode={emailMode} action={setEmailModeAction} />
        <div className="mt-6 border-t border-slate-200 pt-6">
          <InboxModeForm inboxMode={inboxMode} action={setInboxModeAction} />
        </div>
      </section>
      <section aria-labelledby="slack" className="mt-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="slack" className="mb-4 text-base font-semibold">
          Slack (whole workspace)
        </h2>
        <SlackWebhookForm
          host={slack?.host ?? null}
          canEdit={can(role, 'manageWebhooks')}
          save={saveSlackWebhookAction}
          remove={removeSlackWebhookAction}
          test={sendSlackTestAction}
        />
      </section>
    </>
  );
}
