import { NO_SOCKET } from '@/lib/net/send';
import type { Classification, PublishResult, RawOutcome } from './types';

/** The result for an input the client refuses before any request (a caller bug, never a platform answer). */
export function rejectedInput(reason: string, startedAt: Date): PublishResult {
  const raw: RawOutcome = {
    type: 'error',
    code: 'INVALID_INPUT',
    name: 'TypeError',
    message: reason,
    timedOut: false,
    connection: NO_SOCKET,
  };
  return { outcome: 'failed', rule: 'invalid-input', reason, raw, startedAt, durationMs: 0 };
}

export function withTiming(classification: Classification, raw: RawOutcome, startedAt: Date): PublishResult {
  return { ...classification, raw, startedAt, durationMs: Date.now() - startedAt.getTime() };
}
