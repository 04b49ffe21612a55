import type { PublishContainerResult, SandboxContainer } from '@/sandbox/store/types';

// A Threads media container's life, written once for the dialect and both stores
// (developers.facebook.com/docs/threads/troubleshooting: EXPIRED, ERROR, FINISHED, IN_PROGRESS, PUBLISHED).

export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';

/** "The container was not published within 24 hours and has expired." */
export const CONTAINER_TTL_MS = 24 * 3_600_000;

export function containerStatus(container: SandboxContainer, now: Date, ttlMs = CONTAINER_TTL_MS): ContainerStatus {
  if (container.postId) return 'PUBLISHED';
  if (container.errorMessage) return 'ERROR';
  if (now.getTime() >= container.createdAt.getTime() + ttlMs) return 'EXPIRED';
  if (now < container.readyAt) return 'IN_PROGRESS';
  return 'FINISHED';
}

type Refusal = Extract<PublishContainerResult, { status: 'refused' }>['reason'];

/** Why threads_publish refuses this container now, or null when it may be published. */
export function containerRefusal(
  container: SandboxContainer,
  now: Date,
  options: { ttlMs: number; republish: boolean },
): Refusal | null {
  // A published container is checked first: on a server that publishes it again it is neither expired nor failed.
  if (container.postId) return options.republish ? null : 'published';
  switch (containerStatus(container, now, options.ttlMs)) {
    case 'ERROR':
      return 'error';
    case 'EXPIRED':
      return 'expired';
    case 'IN_PROGRESS':
      return 'in_progress';
    default:
      return null;
  }
}
