import { NO_SOCKET } from '@/lib/net/send';
import type { Classification, PublishMedia, RawOutcome } from './types';

/**
 * An image upload is not the post. Whatever happens to it, the post was not attempted, so its outcome is
 * never `ambiguous`: an unknown or lost upload is `not_sent` (the next attempt uploads again; the earlier upload,
 * if it landed, is an unused file the platform discards), and a definite refusal (an unsupported image, a refused
 * token) stays `failed` under its own rule, so a 401 still holds the account for a reconnect.
 */
export function mediaNotPosted(network: string, c: Classification): Classification {
  if (c.outcome === 'failed')
    return {
      ...c,
      reason: `${network} refused an image upload, so the post was not attempted. ${c.reason}`,
      evidence: { ...c.evidence, mediaStep: true },
    };
  return {
    outcome: 'not_sent',
    rule: 'media-not-uploaded',
    httpStatus: c.httpStatus,
    ...(c.retryAt ? { retryAt: c.retryAt } : {}),
    reason: `An image upload to ${network} did not complete (${c.reason}); the post was not attempted and is tried again.`,
    evidence: { ...c.evidence, mediaRule: c.rule },
  };
}

/** The images' bytes, or why they cannot be read (nothing was sent: the stored file is gone). */
export async function readMedia(
  media: readonly PublishMedia[],
): Promise<{ ok: true; bytes: Uint8Array[] } | { ok: false; classification: Classification; raw: RawOutcome }> {
  try {
    return { ok: true, bytes: await Promise.all(media.map((m) => m.read())) };
  } catch (error) {
    const message = (error as Error).message;
    return {
      ok: false,
      classification: {
        outcome: 'failed',
        rule: 'media-unreadable',
        reason: `An image of this post could not be read from the media storage (${message}); nothing was sent.`,
      },
      raw: { type: 'error', code: 'MEDIA_UNREADABLE', name: 'Error', message, timedOut: false, connection: NO_SOCKET },
    };
  }
}

/** A stand-in raw outcome when a step ends the attempt before the post request. */
export function notCalled(message: string): RawOutcome {
  return { type: 'error', code: 'NOT_STARTED', name: 'Error', message, timedOut: false, connection: NO_SOCKET };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
