import { SavedReplies } from '@/components/settings/saved-replies';
import { PageHeader } from '@/components/ui/page-header';
import { getDb } from '@/db/client';
import { listSavedReplies } from '@/db/queries/inbox/saved-replies';
import { can } from '@/lib/auth/can';
import { requirePageWorkspace } from '@/lib/auth/gate';
import { SAVED_REPLY_VARIABLES } from '@/lib/inbox/variables';
import { deleteSavedReplyAction, saveSavedReplyAction } from './actions';

export const metadata = { title: 'Saved replies' };

export default async function SavedRepliesPage() {
  const { workspace, role } = await requirePageWorkspace();
  const replies = await listSavedReplies(getDb(), { workspaceIds: [workspace.id] });
  return (
    <>
      <PageHeader
        title="Saved replies"
        description={`Answers your team sends often in ${workspace.name}, inserted or sent from the inbox with their variables filled.`}
      />
      <SavedReplies
        replies={replies}
        variables={Object.entries(SAVED_REPLY_VARIABLES)}
        canEdit={can(role, 'answer')}
        save={saveSavedReplyAction}
        remove={deleteSavedReplyAction}
      />
    </>
  );
}
