import type { Rule } from './classify';
import { classifyWith } from './classify';
import { sendOnce, type HttpRequest } from '@/lib/net/send';
import type { ProviderTransport } from './transport';
import { ProviderReadError, type WhoAmIResult } from './types';

/** A GET whose 2xx JSON body is returned; anything else throws ProviderReadError with its classification. */
export async function readJson(
  request: Omit<HttpRequest, 'method'>,
  rules: readonly Rule[],
  send: ProviderTransport = sendOnce,
): Promise<{ body: unknown; headers: Record<string, string> }> {
  const raw = await send({ ...request, method: 'GET' });
  if (raw.type === 'response' && raw.status >= 200 && raw.status < 300 && raw.body !== null)
    return { body: raw.body, headers: raw.headers };
  const classification = classifyWith(rules, raw);
  throw new ProviderReadError(`Could not read from the platform: ${classification.reason}`, classification);
}

/** The connection check, shared by every client: a failed read becomes a result, not an exception. */
export async function checkIdentity(
  read: () => Promise<{ id: string; handle: string; displayName: string | null; url?: string | null }>,
): Promise<WhoAmIResult> {
  try {
    return { ok: true, ...(await read()) };
  } catch (error) {
    if (!(error instanceof ProviderReadError)) throw error;
    const { outcome, rule, reason, httpStatus } = error.classification;
    return { ok: false, outcome, rule, reason, httpStatus };
  }
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
