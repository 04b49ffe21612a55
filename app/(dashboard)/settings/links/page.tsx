import Link from 'next/link';
import { LinkSettingsForm, UtmPresetForm } from '@/components/links/link-settings';
import { DeletableList } from '@/components/ui/deletable-list';
import { ShortLinkTable } from '@/components/links/short-link-table';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { getLinkSettings, listShortLinks, listUtmPresets } from '@/db/queries/links';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { shortLinkOrigin } from '@/lib/links/short-link';
import { createUtmPresetAction, deleteUtmPresetAction, saveLinkSettingsAction } from './actions';

export const metadata = { title: 'Links' };

export default async function LinkSettingsPage() {
  const { workspace, role } = await requirePageWorkspace();
  const admin = can(role, 'manageWorkspace');
  const db = getDb();
  const [settings, presets, links] = await Promise.all([
    getLinkSettings(db, { workspaceId: workspace.id }),
    listUtmPresets(db, { workspaceId: workspace.id }),
    listShortLinks(db, { workspaceId: workspace.id, limit: 50 }),
  ]);
  return (
    <>
      <PageHeader
        title="Links"
        description={
          <>
            UTM tags and short links for every post’s links, per network, with their clicks.{' '}
            <Link className="text-indigo-700 underline" href="/settings">
              ← Settings
            </Link>
          </>
        }
      />
      <section aria-labelledby="tracking" className="mb-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="tracking" className="mb-4 text-base font-semibold">
          Tracking
        </h2>
        <LinkSettingsForm
          action={saveLinkSettingsAction}
          canEdit={admin}
          origin={shortLinkOrigin() ?? '(set SHORT_LINK_DOMAIN or NEXTAUTH_URL)'}
          settings={{
            utm: settings?.utm ?? false,
            shorten: settings?.shorten ?? false,
            shortener: settings?.shortener ?? 'semel',
            shortenerUrl: settings?.shortenerUrl ?? '',
            hasSecret: Boolean(settings?.shortenerSecretSealed),
          }}
        />
      </section>
      <section aria-labelledby="presets" className="mb-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="presets" className="mb-1 text-base font-semibold">
          UTM presets
        </h2>
        <p className="mb-4 text-sm text-slate-600">
          utm_source is always the network (x, mastodon, bluesky…); a preset gives utm_medium and utm_campaign. A post
          uses the default preset unless it names another or a campaign of its own.
        </p>
        <DeletableList
          label="UTM presets"
          empty="No presets: medium “social”, no campaign."
          items={presets.map((p) => ({
            id: p.id,
            title: p.name,
            badge: p.isDefault ? 'default' : undefined,
            body: `utm_medium=${p.medium}${p.campaign ? ` · utm_campaign=${p.campaign}` : ''}`,
          }))}
          remove={admin ? deleteUtmPresetAction : undefined}
        />
        {admin && <UtmPresetForm action={createUtmPresetAction} />}
      </section>
      <section aria-labelledby="links" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="links" className="mb-1 text-base font-semibold">
          Short links and clicks
        </h2>
        <p className="mb-4 text-sm text-slate-600">
          Clicks by people, per link and so per network; previews and crawlers are not counted, and nothing about a
          visitor is kept. An external shortener counts its own links’ clicks.
        </p>
        <ShortLinkTable
          links={links.map((l) => ({ ...l, createdAt: l.createdAt.toISOString() }))}
          caption="Recent short links"
        />
      </section>
    </>
  );
}
