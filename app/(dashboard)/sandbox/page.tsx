import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { SandboxControls } from '@/components/sandbox/sandbox-controls';
import { SandboxTimeline } from '@/components/sandbox/sandbox-timeline';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { getEnv } from '@/lib/env';
import { queryKeys } from '@/lib/query/keys';
import { getServerQueryClient } from '@/lib/query/query-client';
import { readSandboxTimeline } from '@/lib/reads/sandbox-timeline';
import { naiveRetryDemoAction, publishTestPostAction, revokeSandboxTokensAction, updateFaultsAction } from './actions';

export const metadata = { title: 'Sandbox' };

export default async function SandboxPage() {
  const { workspace, role } = await requirePageWorkspace();
  const env = getEnv();
  const header = (
    <PageHeader
      title="Sandbox"
      description="A built-in fake social network (X and Mastodon wire formats) with fault injection."
    />
  );
  if (!env.sandboxEnabled) {
    return (
      <>
        {header}
        <EmptyState title="The sandbox is switched off">
          Set SANDBOX_ENABLED=true to serve the sandbox network on this server.
        </EmptyState>
      </>
    );
  }
  const queryClient = getServerQueryClient();
  await queryClient.prefetchQuery({
    queryKey: queryKeys.sandboxTimeline(workspace.id),
    queryFn: () =>
      readSandboxTimeline(getDb(), {
        workspaceId: workspace.id,
        encryptionKey: env.APP_ENCRYPTION_KEY,
        sandboxEnabled: true,
      }),
  });
  return (
    <>
      {header}
      <aside
        aria-labelledby="why"
        className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
      >
        <h2 id="why" className="font-semibold">
          Why “timeout after commit” matters
        </h2>
        <p className="mt-1">
          With it on, the platform stores the post and then never answers in time. The client only sees a timeout, which
          looks exactly like a request that never arrived. A naive client retries and the post appears twice. Semel
          marks such a delivery <em>ambiguous</em> and checks the platform before publishing again, so it appears once.
          Turn the knob up to 1 and run the naive retry demo to watch the copies on the timeline.
        </p>
      </aside>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <div className="space-y-8">
          {can(role, 'sandboxControl') && (
            <SandboxControls
              workspaceId={workspace.id}
              actions={{
                publishTestPost: publishTestPostAction,
                updateFaults: updateFaultsAction,
                naiveRetryDemo: naiveRetryDemoAction,
                revokeTokens: revokeSandboxTokensAction,
              }}
            />
          )}
          <section aria-labelledby="timeline">
            <h2 id="timeline" className="mb-3 text-base font-semibold">
              Live timeline
            </h2>
            <SandboxTimeline workspaceId={workspace.id} />
          </section>
        </div>
      </HydrationBoundary>
    </>
  );
}
