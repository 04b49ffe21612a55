import { NETWORK_RULES, classifyWith, retryAfter, statusRules, type ClassifyContext, type Rule } from '../classify';
import { asRecord, asString } from '../read';
import type { Classification, RawOutcome } from '../types';

/**
 * Google's error body (developers.google.com/youtube/v3/docs/errors): `{ error: { code, message, errors: [{ domain,
 * reason, message }] } }`. The rows read the `reason` before the HTTP status: a 403 is a spent quota, a rate limit or
 * a refusal depending on it.
 */
export function googleReason(raw: RawOutcome): string | null {
  if (raw.type !== 'response') return null;
  const error = asRecord(asRecord(raw.body).error);
  const first = asRecord(Array.isArray(error.errors) ? error.errors[0] : undefined);
  return asString(first.reason) ?? null;
}

const messageOf = (body: unknown) => asString(asRecord(asRecord(body).error).message)?.replace(/<[^>]*>/g, '');
const said = (raw: RawOutcome) => {
  const message = raw.type === 'response' ? messageOf(raw.body) : undefined;
  const reason = googleReason(raw);
  return message ? ` YouTube said: “${message}” (${reason ?? 'no reason'})` : reason ? ` (${reason})` : '';
};
const reasonIn =
  (...reasons: string[]) =>
  (raw: RawOutcome): boolean =>
    reasons.includes(googleReason(raw) ?? '');
const httpStatus = (raw: RawOutcome) => (raw.type === 'error' ? undefined : raw.status);

/** The Data API quota resets at midnight Pacific Time (developers.google.com/youtube/v3/getting-started#quota). */
export function nextPacificMidnight(now: Date): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Los_Angeles',
      hourCycle: 'h23',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(now)
      .map((p) => [p.type, Number(p.value)]),
  ) as { hour: number; minute: number; second: number };
  const sinceMidnight = ((parts.hour * 60 + parts.minute) * 60 + parts.second) * 1000 + now.getMilliseconds();
  // A minute past, so a clock a little ahead of Google's does not ask again before the reset.
  return new Date(now.getTime() - sinceMidnight + 24 * 3_600_000 + 60_000);
}

/** A channel's daily upload limit frees up over hours (YouTube does not say when). */
const UPLOAD_LIMIT_RETRY_MS = 3_600_000;
const RATE_RETRY_MS = 60_000;

export const YOUTUBE_RULES: readonly Rule[] = [
  ...NETWORK_RULES,
  {
    // A spent quota refuses the call before it does anything: nothing was started.
    id: 'youtube-quota-exceeded',
    when: reasonIn('quotaExceeded', 'dailyLimitExceeded'),
    then: (raw, { now }) => {
      const retryAt = nextPacificMidnight(now);
      return {
        outcome: 'not_sent',
        httpStatus: httpStatus(raw),
        retryAt,
        reason: `YouTube’s daily quota for this app is spent; nothing was uploaded. Next try after ${retryAt.toISOString()}.${said(raw)}`,
      };
    },
  },
  {
    id: 'youtube-rate-limited',
    when: reasonIn('rateLimitExceeded', 'userRateLimitExceeded'),
    then: (raw, { now }) => {
      const retryAt =
        retryAfter(raw.type === 'error' ? {} : raw.headers, now) ?? new Date(now.getTime() + RATE_RETRY_MS);
      return {
        outcome: 'not_sent',
        httpStatus: httpStatus(raw),
        retryAt,
        reason: `YouTube is rate limiting this app; nothing was uploaded. Next try after ${retryAt.toISOString()}.${said(raw)}`,
      };
    },
  },
  {
    id: 'youtube-upload-limit',
    when: reasonIn('uploadLimitExceeded'),
    then: (raw, { now }) => {
      const retryAt = new Date(now.getTime() + UPLOAD_LIMIT_RETRY_MS);
      return {
        outcome: 'not_sent',
        httpStatus: httpStatus(raw),
        retryAt,
        reason: `This channel has reached YouTube’s upload limit for now; nothing was uploaded. Next try after ${retryAt.toISOString()}.${said(raw)}`,
      };
    },
  },
  {
    id: 'youtube-metadata-refused',
    when: reasonIn('invalidTitle', 'invalidDescription', 'invalidTags', 'invalidPublishAt', 'invalidVideoMetadata'),
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: httpStatus(raw),
      reason: `YouTube refused the video’s title, description, tags or schedule.${said(raw)}`,
    }),
  },
  {
    id: 'youtube-forbidden',
    when: (raw) => httpStatus(raw) === 403 && googleReason(raw) !== null,
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: 403,
      reason: `YouTube refused the upload for this channel (permissions or channel restrictions).${said(raw)}`,
    }),
  },
  ...statusRules({ reasonOf: messageOf, retryAtOf: () => undefined }),
];

export function classifyYoutube(raw: RawOutcome, context?: ClassifyContext): Classification {
  return classifyWith(YOUTUBE_RULES, raw, context);
}
