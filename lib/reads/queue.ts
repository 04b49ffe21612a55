import type { Executor } from '@/db/client';
import { listPosts } from '@/db/queries/posts';
import { serializePost } from '@/lib/posts/serialize';

type Serialized = ReturnType<typeof serializePost>;
export type QueueItem = Omit<Serialized, 'deliveries'> & {
  deliveries: (Serialized['deliveries'][number] & {
    handle: string;
    failureReason: string | null;
    /** Scheduled but held: its account's token needs a reconnect. */
    held: boolean;
  })[];
};

/** The queue's data (React Query polls it while something can still change). */
export async function readQueue(db: Executor, params: { workspaceId: string }): Promise<QueueItem[]> {
  const rows = await listPosts(db, { workspaceId: params.workspaceId, limit: 100 });
  return rows.map(({ post, deliveries }) => {
    const serialized = serializePost(post, deliveries);
    return {
      ...serialized,
      deliveries: serialized.deliveries.map((d, i) => ({
        ...d,
        handle: deliveries[i]!.accountHandle,
        failureReason: deliveries[i]!.failureReason,
        held: d.status === 'scheduled' && deliveries[i]!.accountNeedsReconnect,
      })),
    };
  });
}
