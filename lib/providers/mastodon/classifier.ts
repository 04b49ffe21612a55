import { NETWORK_RULES, classifyWith, statusRules, type ClassifyContext, type Rule } from '../classify';
import { asRecord, asString } from '../read';
import type { Classification, RawOutcome } from '../types';

/** Mastodon errors are `{ "error": "…" }`. */
export function mastodonErrorMessage(body: unknown): string | undefined {
  return asString(asRecord(body).error);
}

/** `X-RateLimit-Reset` is an ISO 8601 timestamp. */
function mastodonRateLimitReset(headers: Record<string, string>): Date | undefined {
  const value = headers['x-ratelimit-reset'];
  const date = value ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

const status = (raw: RawOutcome) =>
  raw.type === 'response' && raw.status >= 200 && raw.status < 300 ? asRecord(raw.body) : {};

export const MASTODON_RULES: readonly Rule[] = [
  ...NETWORK_RULES,
  {
    id: 'mastodon-status-created',
    when: (raw) => Boolean(asString(status(raw).id)),
    then: (raw) => ({
      outcome: 'sent',
      httpStatus: (raw as { status: number }).status,
      externalId: asString(status(raw).id)!,
      url: asString(status(raw).url) ?? asString(status(raw).uri),
      reason: 'Published; the platform returned its id.',
    }),
  },
  ...statusRules({ reasonOf: mastodonErrorMessage, retryAtOf: (headers) => mastodonRateLimitReset(headers) }),
];

export function classifyMastodon(raw: RawOutcome, context?: ClassifyContext): Classification {
  return classifyWith(MASTODON_RULES, raw, context);
}
