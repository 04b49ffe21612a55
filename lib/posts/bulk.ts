import type { Database } from '@/db/client';
import { getIdempotencyKey } from '@/db/queries/idempotency';
import { getPostWithDeliveries } from '@/db/queries/posts';
import { listSnippets } from '@/db/queries/library';
import { cancelPost } from './cancel';
import { EDIT_POST_OPERATION, editPost, type EditPostResult } from './edit';
import { isPostId } from './get';
import { editPostRequestSchema, type EditPostRequest } from './schemas';

/** What a bulk action does to each selected post (the calendar's and the queue's selection bar). */
export type BulkChange =
  | { kind: 'reschedule'; offsetMinutes: number }
  /** Into the posting-slot queue: each post to its accounts' next free slot ("Add to queue"). */
  | { kind: 'queue' }
  | { kind: 'accounts'; add: string[]; remove: string[] }
  | { kind: 'snippet'; snippetId: string; op: 'add' | 'remove' }
  | { kind: 'cancel' };

export type BulkOutcome = {
  postId: string;
  /** `refused`: nothing changed on it — already publishing or sent, canceled, or the change does not fit it. */
  outcome: 'changed' | 'unchanged' | 'refused';
  message: string;
};

export const BULK_MAX_POSTS = 100;

const REFUSED: Record<string, string> = {
  already_publishing: 'Already publishing: not changed, it goes out as it was, once.',
  already_sent: 'Already sent: not changed.',
  not_editable: 'Canceled: nothing to change.',
  not_found: 'This post no longer exists.',
};

/**
 * A bulk action, post by post, each the same keyed, race-safe edit as one post's (lib/posts/edit.ts: the deliveries
 * locked first, so an edit racing the publisher lands before the claim or is refused after it). Each post's edit is
 * keyed `bulk:<key>:<post>`: the same bulk action sent again (a double click, a retry) replays each post's answer
 * and changes nothing twice. Returns what changed and what was refused, and why.
 */
export async function bulkEditPosts(
  db: Database,
  params: { workspaceId: string; postIds: string[]; change: BulkChange; actor: string; key: string },
): Promise<BulkOutcome[]> {
  const snippets = params.change.kind === 'snippet' ? await listSnippets(db, { workspaceId: params.workspaceId }) : [];
  const outcomes: BulkOutcome[] = [];
  for (const postId of [...new Set(params.postIds)].slice(0, BULK_MAX_POSTS)) {
    const scope = { workspaceId: params.workspaceId, postId };
    const refused = (message: string): BulkOutcome => ({ postId, outcome: 'refused', message });
    if (!isPostId(postId)) {
      outcomes.push(refused(REFUSED.not_found!));
      continue;
    }
    if (params.change.kind === 'cancel') {
      const result = await cancelPost(db, { ...scope, actor: params.actor });
      outcomes.push(
        result.kind === 'ok'
          ? result.canceledDeliveryIds.length > 0
            ? { postId, outcome: 'changed', message: 'Canceled.' }
            : { postId, outcome: 'unchanged', message: 'Already canceled.' }
          : refused(result.kind === 'not_found' ? REFUSED.not_found! : 'Already publishing or settled: not canceled.'),
      );
      continue;
    }
    // This action already reached this post (a double click, a retry): its stored answer, not a second change
    // computed from the post as the first one left it. The key row is the guard, not this read: a racing twin that
    // read the post after the first one's edit computes another edit, and its key refuses it (key_reused, below).
    const key = `bulk:${params.key}:${postId}`;
    const keyScope = { workspaceId: params.workspaceId, operation: EDIT_POST_OPERATION, key };
    const earlier = await getIdempotencyKey(db, keyScope);
    if (earlier) {
      outcomes.push(replayed(postId, earlier));
      continue;
    }
    const current = await getPostWithDeliveries(db, scope);
    if (!current) {
      outcomes.push(refused(REFUSED.not_found!));
      continue;
    }
    const changes = changesFor(params.change, current, snippets);
    if (typeof changes === 'string') {
      outcomes.push(
        changes === '' ? { postId, outcome: 'unchanged', message: 'Nothing to change.' } : refused(changes),
      );
      continue;
    }
    const parsed = editPostRequestSchema.safeParse(changes);
    if (!parsed.success) {
      outcomes.push(refused(parsed.error.issues[0]!.message));
      continue;
    }
    const result = await editPost(db, {
      ...scope,
      changes: parsed.data,
      actor: params.actor,
      idempotencyKey: key,
    });
    // A twin of this action took the key meanwhile (with the edit it computed): its answer is this action's answer.
    const twin = result.kind === 'key_reused' ? await getIdempotencyKey(db, keyScope) : null;
    outcomes.push(twin ? replayed(postId, twin) : toOutcome(postId, result));
  }
  return outcomes;
}

type Current = NonNullable<Awaited<ReturnType<typeof getPostWithDeliveries>>>;

/** The edit a bulk action makes to one post, '' for none, or why it does not fit this post. */
function changesFor(
  change: Exclude<BulkChange, { kind: 'cancel' }>,
  current: Current,
  snippets: { id: string; text: string }[],
): EditPostRequest | string {
  switch (change.kind) {
    case 'reschedule':
      return {
        scheduledAt: new Date(current.post.scheduledAt.getTime() + change.offsetMinutes * 60_000).toISOString(),
      };
    case 'queue':
      return { slot: 'next' };
    case 'accounts': {
      const live = [...new Set(current.deliveries.filter((d) => d.status !== 'canceled').map((d) => d.accountId))];
      const next = [...new Set([...live, ...change.add])].filter((id) => !change.remove.includes(id));
      if (next.length === 0) return 'A post needs at least one account: cancel it instead.';
      const same = next.length === live.length && next.every((id) => live.includes(id));
      return same ? '' : { accountIds: next };
    }
    case 'snippet': {
      const snippet = snippets.find((s) => s.id === change.snippetId);
      if (!snippet) return 'No such snippet.';
      if (current.post.kind === 'thread') return 'A thread’s text is in its parts: edit it on its page.';
      const text = current.post.text;
      if (change.op === 'add')
        return text.includes(snippet.text) ? '' : { text: `${text.trimEnd()}\n\n${snippet.text}` };
      if (!text.includes(snippet.text)) return '';
      const without = text
        .replace(snippet.text, '')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
      return without === '' ? 'The post would be empty without it.' : { text: without };
    }
  }
}

/** What this action did to the post the first time, from its key's stored answer. */
function replayed(
  postId: string,
  row: { state: string; responseStatus: number | null; responseBody: string | null },
): BulkOutcome {
  if (row.state !== 'completed')
    return { postId, outcome: 'refused', message: 'Still being changed: retry in a moment (it changes once).' };
  if (row.responseStatus === 200) return { postId, outcome: 'changed', message: 'Changed (already, by this action).' };
  const reason = (JSON.parse(row.responseBody ?? '{}') as { reason?: string }).reason;
  return { postId, outcome: 'refused', message: REFUSED[reason ?? ''] ?? 'Not changed.' };
}

function toOutcome(postId: string, result: EditPostResult): BulkOutcome {
  switch (result.kind) {
    case 'ok':
      return {
        postId,
        outcome: 'changed',
        message: result.replayed ? 'Changed (already, by this action).' : 'Changed.',
      };
    case 'conflict':
      return { postId, outcome: 'refused', message: REFUSED[result.reason] ?? 'Not changed.' };
    case 'invalid':
      return { postId, outcome: 'refused', message: Object.values(result.errors).flat().join(' ') || 'Not valid.' };
    case 'not_found':
      return { postId, outcome: 'refused', message: REFUSED.not_found! };
    case 'key_reused':
      return { postId, outcome: 'refused', message: 'This bulk action was already used for another change.' };
    case 'in_flight':
      return { postId, outcome: 'refused', message: 'Still being changed: retry in a moment (it changes once).' };
  }
}
