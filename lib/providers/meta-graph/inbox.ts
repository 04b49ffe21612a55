import type { Rule } from '../classify';
import type { ResolvedAccount } from '../definition';
import type { InboxReadInput } from '../inbox-types';
import { asRecord, asString, readJson } from '../read';
import type { ProviderTransport } from '../transport';
import type { MetaNetwork } from './network';

/** Graph's `2017-08-31T18:10:30+0000` as a Date. */
export const graphTime = (value: unknown) => new Date(String(value).replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));

/** One Graph GET of the inbox readers (Threads, Instagram, Facebook): 2xx JSON, else ProviderReadError. */
export function graphInboxGet(
  network: MetaNetwork,
  rules: readonly Rule[],
  account: ResolvedAccount,
  send?: ProviderTransport,
) {
  const base = account.baseUrl.replace(/\/+$/, '');
  return async (path: string, query: Record<string, string | undefined>, input: InboxReadInput) => {
    const params = new URLSearchParams(
      Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
    );
    const { body } = await readJson(
      {
        url: `${base}/${network.version}${path}?${params}`,
        headers: { authorization: `Bearer ${account.accessToken}` },
        outbound: account.outbound,
        timeoutMs: input.timeoutMs,
        signal: input.signal,
      },
      rules,
      send,
    );
    const record = asRecord(body);
    return {
      data: (Array.isArray(record.data) ? record.data : []).map(asRecord),
      after: asString(asRecord(asRecord(record.paging).cursors).after),
      next: asString(asRecord(record.paging).next),
    };
  };
}
