import { z } from 'zod';
import { ComposeForm } from '@/components/compose/compose-form';
import { Forbidden } from '@/components/ui/forbidden';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { getLinkSettings, listUtmPresets } from '@/db/queries/links';
import { getRequireAltText } from '@/db/queries/media';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { createPostAction } from './actions';

export const metadata = { title: 'Compose' };

/** `?at=<ISO>` (the calendar's "New post") prefills the time; anything that is not an instant is ignored. */
const prefillSchema = z.iso.datetime({ offset: true }).optional().catch(undefined);

export default async function ComposePage({ searchParams }: { searchParams: Promise<{ at?: string | string[] }> }) {
  const { allowed, workspace } = await requirePageWorkspace('compose');
  if (!allowed) return <Forbidden capability="compose" />;
  const [accounts, requireAltText, linkSettings, presets] = await Promise.all([
    listAccounts(getDb(), { workspaceId: workspace.id }),
    getRequireAltText(getDb(), { workspaceId: workspace.id }),
    getLinkSettings(getDb(), { workspaceId: workspace.id }),
    listUtmPresets(getDb(), { workspaceId: workspace.id }),
  ]);
  const tracksLinks = Boolean(linkSettings && (linkSettings.utm || linkSettings.shorten));
  return (
    <>
      <PageHeader title="Compose" description="Write once, schedule to one or many accounts." />
      <ComposeForm
        workspaceId={workspace.id}
        accounts={accounts.map((a) => ({
          id: a.id,
          handle: a.handle,
          provider: a.provider,
          displayName: a.displayName,
        }))}
        action={createPostAction}
        prefillAt={prefillSchema.parse((await searchParams).at)}
        requireAltText={requireAltText}
        linkPresets={tracksLinks ? presets.map((p) => ({ id: p.id, name: p.name, isDefault: p.isDefault })) : undefined}
      />
    </>
  );
}
