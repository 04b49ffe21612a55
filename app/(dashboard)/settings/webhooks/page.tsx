import Link from 'next/link';
import { CreateWebhookEndpointForm, WebhookEndpointCard } from '@/components/settings/webhooks';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listWebhookEndpoints, listWebhookLog } from '@/db/queries/webhooks';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import {
  createWebhookEndpointAction,
  deleteWebhookEndpointAction,
  redeliverWebhookAction,
  sendTestWebhookAction,
  setWebhookEndpointEnabledAction,
} from './actions';

export const metadata = { title: 'Webhooks' };

export default async function WebhooksSettingsPage() {
  const { workspace, role } = await requirePageWorkspace();
  const admin = can(role, 'manageWebhooks');
  const db = getDb();
  const endpoints = admin ? await listWebhookEndpoints(db, { workspaceId: workspace.id }) : [];
  const views = await Promise.all(
    endpoints.map(async (e) => ({
      id: e.id,
      url: e.url,
      events: e.events,
      enabled: e.enabled,
      log: await listWebhookLog(db, { workspaceId: workspace.id, endpointId: e.id, limit: 20 }),
    })),
  );
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={
          <>
            Tell your own systems when a delivery settles or a post is approved.{' '}
            <Link className="text-indigo-700 underline" href="/settings">
              ← Settings
            </Link>
          </>
        }
      />
      <section aria-labelledby="endpoints" className="mb-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="endpoints" className="mb-4 text-base font-semibold">
          Endpoints
        </h2>
        {admin ? (
          <>
            <CreateWebhookEndpointForm action={createWebhookEndpointAction} />
            <ul
              role="list"
              aria-label="Webhook endpoints"
              className="mt-6 divide-y divide-slate-200 rounded-md ring-1 ring-slate-200"
            >
              {views.length === 0 && <li className="px-4 py-3 text-sm text-slate-600">No endpoints yet.</li>}
              {views.map((endpoint) => (
                <WebhookEndpointCard
                  key={endpoint.id}
                  endpoint={endpoint}
                  sendTest={sendTestWebhookAction}
                  remove={deleteWebhookEndpointAction}
                  redeliver={redeliverWebhookAction}
                  setEnabled={setWebhookEndpointEnabledAction}
                />
              ))}
            </ul>
          </>
        ) : (
          <p className="text-sm text-slate-600">Only admins can manage webhooks.</p>
        )}
      </section>
      <section aria-labelledby="how" className="rounded-lg bg-white p-6 text-sm shadow-sm ring-1 ring-slate-200">
        <h2 id="how" className="mb-2 text-base font-semibold">
          How events are sent
        </h2>
        <p className="text-slate-700">
          Each event is a signed <code>POST</code> following the Standard Webhooks specification (
          <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). The id stays the
          same on every retry, so deduplicate on it; <code>sequence</code> grows per delivery, so an older event that
          arrives late can be ignored. A receiver that does not answer 2xx within 10 seconds is retried after 5 s, 30 s,
          2 min, 10 min, 1 h, then every 3 hours for 24 hours. Only public addresses are called.
        </p>
      </section>
    </>
  );
}
