import type { MediaRow } from '@/db/queries/media';
import type { DeliveryStatus, Post } from '@/db/schema';
import { serializeMedia } from '@/lib/media/serialize';

type DeliveryLike = {
  id: string;
  accountId: string;
  part: number;
  status: DeliveryStatus;
  externalId: string | null;
  url?: string | null;
  externalUrl?: string | null;
  /** The account's own text (per-network variant), or null/absent when it publishes the post's text. */
  variantText?: string | null;
  /** The account's own first comment (its variant's), or null/absent when it publishes the post's (if any). */
  variantFirstComment?: string | null;
  /** The format chosen for the account (deliveries.format), or null/absent for the network's default. */
  format?: string | null;
  /** The account's options (deliveries.options), or null/absent where none were chosen. */
  options?: Record<string, unknown> | null;
};

/** A post's overall status: its deliveries' status when they agree, else `partial`. */
export function postStatus(statuses: DeliveryStatus[]): DeliveryStatus | 'partial' {
  const unique = new Set(statuses);
  return unique.size === 1 ? statuses[0]! : 'partial';
}

const serializeDelivery = (d: DeliveryLike) => ({
  id: d.id,
  accountId: d.accountId,
  part: d.part,
  status: d.status,
  externalId: d.externalId,
  url: d.url ?? d.externalUrl ?? null,
});

/**
 * The API's post representation (also what a create stores for replay). A thread lists its parts in order,
 * each with its images and its own delivery per account (its status and link); `deliveries` holds every part's.
 * `partMedia` is `[part][position]` (a part without images may be missing); `media` is part 0's, the post's own.
 */
export function serializePost(
  post: Post,
  deliveries: DeliveryLike[],
  parts: string[] = [],
  partMedia: MediaRow[][] = [],
) {
  const all = deliveries.map(serializeDelivery);
  return {
    id: post.id,
    status: postStatus(deliveries.map((d) => d.status)),
    kind: post.kind,
    text: post.text,
    firstComment: post.firstComment,
    inReplyTo: post.inReplyTo,
    recipient: post.recipient,
    variants: Object.fromEntries(
      deliveries
        .filter((d) => d.part === 0 && (d.variantText != null || d.variantFirstComment != null))
        .map((d) => [
          d.accountId,
          {
            ...(d.variantText != null ? { text: d.variantText } : {}),
            ...(d.variantFirstComment != null ? { firstComment: d.variantFirstComment } : {}),
          },
        ]),
    ) as Record<string, { text?: string; firstComment?: string }>,
    formats: Object.fromEntries(
      deliveries.filter((d) => d.format != null).map((d) => [d.accountId, d.format!]),
    ) as Record<string, string>,
    options: Object.fromEntries(
      deliveries.filter((d) => d.options != null && d.part === 0).map((d) => [d.accountId, d.options!]),
    ) as Record<string, Record<string, unknown>>,
    scheduledAt: post.scheduledAt.toISOString(),
    createdAt: post.createdAt.toISOString(),
    media: (partMedia[0] ?? []).map(serializeMedia),
    deliveries: all,
    parts:
      post.kind === 'thread'
        ? parts.map((text, position) => ({
            position,
            text,
            media: (partMedia[position] ?? []).map(serializeMedia),
            deliveries: all.filter((d) => d.part === position),
          }))
        : null,
  };
}

export type SerializedPost = ReturnType<typeof serializePost>;
