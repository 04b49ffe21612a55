import type { Executor } from '@/db/client';
import { listPosts } from '@/db/queries/posts';
import { serializePost } from '@/lib/posts/serialize';
import { progressByAccount, type AccountProgress } from '@/lib/posts/thread-progress';

type Serialized = ReturnType<typeof serializePost>;
export type QueueItem = Omit<Serialized, 'deliveries'> & {
  /** One per account; for a thread, where it is ("part k of n": `part` of `parts`). */
  deliveries: AccountProgress<
    Serialized['deliveries'][number] & {
      handle: string;
      failureReason: string | null;
      /** Scheduled but held: its account's token needs a reconnect. */
      held: boolean;
    }
  >[];
};

/** The queue's data (React Query polls it while something can still change): a thread is one item. */
export async function readQueue(db: Executor, params: { workspaceId: string }): Promise<QueueItem[]> {
  const rows = await listPosts(db, { workspaceId: params.workspaceId, limit: 100 });
  return rows.map(({ post, deliveries, parts, partMedia }) => {
    const serialized = serializePost(post, deliveries, parts, partMedia);
    return {
      ...serialized,
      deliveries: progressByAccount(
        serialized.deliveries.map((d, i) => ({
          ...d,
          handle: deliveries[i]!.accountHandle,
          failureReason: deliveries[i]!.failureReason,
          held: d.status === 'scheduled' && deliveries[i]!.accountNeedsReconnect,
        })),
      ),
    };
  });
}
