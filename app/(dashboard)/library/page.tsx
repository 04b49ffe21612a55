import { SnippetForm, TemplateForm } from '@/components/library/library-forms';
import { DeletableList } from '@/components/ui/deletable-list';
import { Forbidden } from '@/components/ui/forbidden';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { listSnippets, listTemplates } from '@/db/queries/library';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { templateVariables } from '@/lib/templates/variables';
import { createSnippetAction, createTemplateAction, deleteSnippetAction, deleteTemplateAction } from './actions';

export const metadata = { title: 'Library' };

export default async function LibraryPage() {
  const { allowed, workspace } = await requirePageWorkspace('compose');
  if (!allowed) return <Forbidden capability="compose" />;
  const db = getDb();
  const [snippets, templates, accounts] = await Promise.all([
    listSnippets(db, { workspaceId: workspace.id }),
    listTemplates(db, { workspaceId: workspace.id }),
    listAccounts(db, { workspaceId: workspace.id }),
  ]);
  const handle = new Map(accounts.map((a) => [a.id, a.handle]));
  return (
    <>
      <PageHeader
        title="Library"
        description="Snippets to insert with / in the composer, and templates that prefill it."
      />
      <section aria-labelledby="snippets" className="mb-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="snippets" className="mb-1 text-base font-semibold">
          Snippets
        </h2>
        <p className="mb-4 text-sm text-slate-600">
          Hashtag groups, signatures, disclaimers: type <kbd>/</kbd> and the name in the composer’s text, or pick one
          under it.
        </p>
        <DeletableList
          label="Snippets"
          remove={deleteSnippetAction}
          items={snippets.map((s) => ({ id: s.id, title: `/${s.name}`, badge: s.kind, body: s.text }))}
        />
        <SnippetForm action={createSnippetAction} />
      </section>
      <section aria-labelledby="templates" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="templates" className="mb-1 text-base font-semibold">
          Templates
        </h2>
        <p className="mb-4 text-sm text-slate-600">
          Text with <code>{'{{variables}}'}</code>, a first comment, default accounts and a time of day. Pick one in the
          composer and fill its variables; in a CSV import, name it in a <code>template</code> column and give each
          variable a column of its name.
        </p>
        <DeletableList
          label="Templates"
          remove={deleteTemplateAction}
          items={templates.map((t) => ({
            id: t.id,
            title: t.name,
            badge:
              templateVariables(t.text, t.firstComment)
                .map((v) => `{{${v}}}`)
                .join(' ') || undefined,
            body: [
              t.text,
              t.firstComment ? `First comment: ${t.firstComment}` : null,
              [
                t.accountIds.map((id) => handle.get(id) ?? 'an account removed').join(', '),
                t.timeOfDay ? `at ${t.timeOfDay}` : null,
              ]
                .filter(Boolean)
                .join(' · ') || null,
            ]
              .filter(Boolean)
              .join('\n'),
          }))}
        />
        <TemplateForm
          action={createTemplateAction}
          accounts={accounts.filter((a) => !a.disconnectedAt).map((a) => ({ id: a.id, handle: a.handle }))}
        />
      </section>
    </>
  );
}
