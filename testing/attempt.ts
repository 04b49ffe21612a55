import { randomUUID } from 'node:crypto';
import type { ProviderClient, ProviderState, PublishInput } from '@/lib/providers/types';

/**
 * One publish attempt that keeps its provider state the way the publisher does (deliveries.provider_state, here in
 * memory): `saved` is every state it kept, `state` what the next attempt starts from (the last one saved replaces
 * the whole state, as saveProviderState does).
 */
export async function attemptKeepingState(
  client: ProviderClient,
  input: Partial<PublishInput> & { text: string },
  state: ProviderState,
  timeoutMs: number,
) {
  const saved: ProviderState[] = [];
  const result = await client.publish({
    kind: 'post',
    idempotencyKey: randomUUID(),
    timeoutMs,
    state,
    saveState: async (s) => {
      saved.push(s);
      return true;
    },
    ...input,
  });
  return { result, saved, state: saved.at(-1) ?? state };
}
