import { z } from 'zod';
import { ComposeForm } from '@/components/compose/compose-form';
import { Forbidden } from '@/components/ui/forbidden';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { getLinkSettings, listUtmPresets } from '@/db/queries/links';
import { listSnippets, listTemplates } from '@/db/queries/library';
import { getRequireAltText, getWorkspaceMedia } from '@/db/queries/media';
import { serializeMedia } from '@/lib/media/serialize';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { createPostAction } from './actions';

export const metadata = { title: 'Compose' };

/** `?at=<ISO>` (the calendar's "New post") prefills the time; anything that is not an instant is ignored. */
const prefillSchema = z.iso.datetime({ offset: true }).optional().catch(undefined);

export default async function ComposePage({ searchParams }: { searchParams: Promise<{ at?: string | string[] }> }) {
  const { allowed, workspace } = await requirePageWorkspace('compose');
  if (!allowed) return <Forbidden capability="compose" />;
  const db = getDb();
  const [accounts, requireAltText, linkSettings, presets, snippets, templates] = await Promise.all([
    listAccounts(db, { workspaceId: workspace.id }),
    getRequireAltText(db, { workspaceId: workspace.id }),
    getLinkSettings(db, { workspaceId: workspace.id }),
    listUtmPresets(db, { workspaceId: workspace.id }),
    listSnippets(db, { workspaceId: workspace.id }),
    listTemplates(db, { workspaceId: workspace.id }),
  ]);
  const templateMedia = new Map(
    (
      await getWorkspaceMedia(db, {
        workspaceId: workspace.id,
        ids: [...new Set(templates.flatMap((t) => t.mediaIds))],
      })
    )
      .map(serializeMedia)
      .map((m) => [m.id, m]),
  );
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
        snippets={snippets.map((s) => ({ id: s.id, name: s.name, kind: s.kind, text: s.text }))}
        templates={templates.map((t) => ({
          id: t.id,
          name: t.name,
          text: t.text,
          firstComment: t.firstComment,
          accountIds: t.accountIds,
          timeOfDay: t.timeOfDay,
          media: t.mediaIds.flatMap((id) => {
            const m = templateMedia.get(id);
            return m
              ? [
                  {
                    id: m.id,
                    type: m.type,
                    width: m.width,
                    height: m.height,
                    size: m.size,
                    altText: m.altText,
                    ...(m.video ? { video: m.video } : {}),
                  },
                ]
              : [];
          }),
        }))}
        linkPresets={tracksLinks ? presets.map((p) => ({ id: p.id, name: p.name, isDefault: p.isDefault })) : undefined}
      />
    </>
  );
}
