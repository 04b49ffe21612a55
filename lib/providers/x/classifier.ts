import { NETWORK_RULES, classifyWith, statusRules, type ClassifyContext, type Rule } from '../classify';
import { asRecord, asString } from '../read';
import type { Classification, RawOutcome } from '../types';

/** X API v2 errors: problem-like `{ title, detail, type, status }` or `{ errors: [{ message }] }`. */
export function xErrorMessage(body: unknown): string | undefined {
  const b = asRecord(body);
  const first = Array.isArray(b.errors) ? asRecord(b.errors[0]) : {};
  // The per-parameter message says more than the generic `detail` when both are there.
  return asString(first.message) ?? asString(b.detail) ?? asString(first.detail) ?? asString(b.title);
}

/** `x-rate-limit-reset` is the reset time in epoch seconds. */
function xRateLimitReset(headers: Record<string, string>): Date | undefined {
  const reset = Number(headers['x-rate-limit-reset']);
  return Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000) : undefined;
}

const data = (raw: RawOutcome) =>
  raw.type === 'response' && raw.status >= 200 && raw.status < 300 ? asRecord(asRecord(raw.body).data) : {};

export const X_RULES: readonly Rule[] = [
  ...NETWORK_RULES,
  {
    id: 'x-tweet-created',
    when: (raw) => Boolean(asString(data(raw).id)),
    then: (raw) => ({
      outcome: 'sent',
      httpStatus: (raw as { status: number }).status,
      externalId: asString(data(raw).id)!,
      reason: 'Published; the platform returned its id.',
    }),
  },
  {
    id: 'x-dm-created',
    when: (raw) => Boolean(asString(data(raw).dm_event_id)),
    then: (raw) => ({
      outcome: 'sent',
      httpStatus: (raw as { status: number }).status,
      externalId: asString(data(raw).dm_event_id)!,
      reason: 'Message sent; the platform returned its id.',
      evidence: { dmConversationId: data(raw).dm_conversation_id },
    }),
  },
  {
    // X refuses identical text within a window: the first copy is probably live. Evidence for reconciliation, not a failure.
    id: 'x-duplicate-content',
    when: (raw) =>
      raw.type === 'response' && raw.status === 403 && /duplicate content/i.test(xErrorMessage(raw.body) ?? ''),
    then: (raw) => ({
      outcome: 'ambiguous',
      httpStatus: 403,
      reason: 'X says this exact text is already on the account: an earlier attempt probably published it.',
      evidence: { duplicateContent: true, platformDetail: xErrorMessage((raw as { body: unknown }).body) },
    }),
  },
  ...statusRules({ reasonOf: xErrorMessage, retryAtOf: (headers) => xRateLimitReset(headers) }),
];

export function classifyX(raw: RawOutcome, context?: ClassifyContext): Classification {
  return classifyWith(X_RULES, raw, context);
}
