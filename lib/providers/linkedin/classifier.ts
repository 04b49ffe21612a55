import { NETWORK_RULES, classifyWith, statusRules, type ClassifyContext, type Rule } from '../classify';
import { asRecord, asString } from '../read';
import type { Classification, RawOutcome } from '../types';
import { POST_URN } from './urn';

/** LinkedIn errors: `{ status, message, code?, serviceErrorCode?, errorDetails? }`; the message may lead with a Java class. */
export function linkedinErrorMessage(body: unknown): string | undefined {
  const message = asString(asRecord(body).message);
  return message?.replace(/^(?:[\w$]+\.)+[\w$]*Exception:\s*/, '');
}

const DUPLICATE_OF = /duplicate of (urn:li:[A-Za-z]+:[0-9A-Za-z_-]+)/i;

/**
 * LinkedIn's duplicate refusal: 422 with `DUPLICATE_POST` in errorDetails.inputErrors and, in the message,
 * "Content is a duplicate of urn:li:share:…". Null when the answer is something else.
 */
export function duplicatePostOf(raw: RawOutcome): { urn: string | null } | null {
  if (raw.type !== 'response' || raw.status !== 422) return null;
  const body = asRecord(raw.body);
  const inputErrors = asRecord(body.errorDetails).inputErrors;
  const coded = Array.isArray(inputErrors) && inputErrors.some((e) => asRecord(e).code === 'DUPLICATE_POST');
  const named = DUPLICATE_OF.exec(asString(body.message) ?? '');
  if (!coded && !named) return null;
  return { urn: named?.[1] ?? null };
}

/** The new post's URN: the `x-restli-id` header of a 201 (the body is empty). */
function createdUrn(raw: RawOutcome): string | undefined {
  if (raw.type === 'error' || raw.status !== 201) return undefined;
  const urn = raw.headers['x-restli-id'] ?? raw.headers['x-linkedin-id'];
  return urn && POST_URN.test(urn) ? urn : undefined;
}

/** Member and application limits are per day and reset at midnight UTC; LinkedIn sends no Retry-After. */
function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

export const LINKEDIN_RULES: readonly Rule[] = [
  {
    // The URN travels in a header: a 201 whose (empty) body broke off still names the post.
    id: 'linkedin-post-created',
    when: (raw) => createdUrn(raw) !== undefined,
    then: (raw) => ({
      outcome: 'sent',
      httpStatus: 201,
      externalId: createdUrn(raw)!,
      reason: 'Published; LinkedIn returned the post URN.',
    }),
  },
  ...NETWORK_RULES,
  {
    // The text is already on the author's feed, probably from an earlier attempt: evidence to read back, not a failure.
    id: 'linkedin-duplicate-post',
    when: (raw) => duplicatePostOf(raw) !== null,
    then: (raw) => {
      const { urn } = duplicatePostOf(raw)!;
      const platformDetail = linkedinErrorMessage((raw as { body: unknown }).body);
      return {
        outcome: 'ambiguous',
        httpStatus: 422,
        reason: urn
          ? `LinkedIn says this text is already posted as ${urn}: an earlier attempt probably published it.`
          : 'LinkedIn says this text is already posted: an earlier attempt probably published it.',
        evidence: urn ? { duplicateOf: urn, platformDetail } : { duplicateContent: true, platformDetail },
      };
    },
  },
  {
    // A sunset (or unknown) LinkedIn-Version: nothing is processed until the pinned version is updated.
    id: 'linkedin-version-inactive',
    when: (raw) => raw.type !== 'error' && raw.status === 426,
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: 426,
      reason:
        'LinkedIn no longer serves the API version this app sends; set LINKEDIN_API_VERSION to a current one (YYYYMM).' +
        (raw.type === 'response' && linkedinErrorMessage(raw.body)
          ? ` LinkedIn said: “${linkedinErrorMessage(raw.body)}”`
          : ''),
    }),
  },
  {
    id: 'linkedin-daily-limit',
    when: (raw) =>
      raw.type === 'response' && raw.status === 429 && /\bDAY limit\b/i.test(linkedinErrorMessage(raw.body) ?? ''),
    then: (_raw, { now }) => {
      const retryAt = nextUtcMidnight(now);
      return {
        outcome: 'not_sent',
        httpStatus: 429,
        retryAt,
        reason: `LinkedIn’s daily limit is reached; nothing was published. Next try after ${retryAt.toISOString()} (midnight UTC).`,
      };
    },
  },
  ...statusRules({ reasonOf: linkedinErrorMessage, retryAtOf: () => undefined }),
];

export function classifyLinkedin(raw: RawOutcome, context?: ClassifyContext): Classification {
  return classifyWith(LINKEDIN_RULES, raw, context);
}
