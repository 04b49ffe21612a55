import type { ReadBackInput } from './types';

/**
 * The id a delivery kept across attempts under `key` (Threads' container, TikTok's publish), else the latest one an
 * ambiguous attempt named in its evidence (kept state can be missing when the save itself was refused).
 */
export function keptId(input: Pick<ReadBackInput, 'state' | 'evidence'>, key: string): string | null {
  const kept = input.state[key];
  if (typeof kept === 'string') return kept;
  for (const evidence of [...input.evidence].reverse()) if (typeof evidence[key] === 'string') return evidence[key];
  return null;
}
