import type { DeliveryStatus } from '@/db/schema';

type PartDelivery = { accountId: string; part: number; status: DeliveryStatus; url?: string | null };

export type AccountProgress<D> = D & {
  /** How many parts the post has on this account (1 for every kind but a thread). */
  parts: number;
  /** The link to the post on the platform: for a thread, its first part (the thread's start). */
  threadUrl: string | null;
};

/**
 * One line per account for lists: where the account's thread is — its first part not yet sent (the one
 * publishing, being verified, in review or ended otherwise), or its last part once all are sent. For a post
 * that is not a thread this is its one delivery per account.
 */
export function progressByAccount<D extends PartDelivery>(deliveries: D[]): AccountProgress<D>[] {
  const byAccount = new Map<string, D[]>(); // not Map.groupBy: this also runs in older browsers
  for (const d of deliveries) byAccount.set(d.accountId, [...(byAccount.get(d.accountId) ?? []), d]);
  return [...byAccount.values()].map((parts) => {
    const ordered = [...parts].sort((a, b) => a.part - b.part);
    const current = ordered.find((d) => d.status !== 'sent') ?? ordered.at(-1)!;
    return { ...current, parts: ordered.length, threadUrl: ordered[0]!.url ?? null };
  });
}
