import { NETWORK_RULES, classifyWith, retryAfter, statusRules, type ClassifyContext, type Rule } from '../classify';
import { asRecord, asString } from '../read';
import type { Classification, RawOutcome } from '../types';

/**
 * TikTok's error envelope, on every answer: `{ data, error: { code, message, log_id } }`, `code` "ok" on success
 * (developers.tiktok.com/doc/tiktok-api-v2-error-handling). The rows read the code before the HTTP status.
 */
export type TiktokError = { code: string; message?: string; logId?: string };

export function tiktokError(raw: RawOutcome): TiktokError | null {
  if (raw.type !== 'response') return null;
  const error = asRecord(asRecord(raw.body).error);
  const code = asString(error.code);
  return code ? { code, message: asString(error.message), logId: asString(error.log_id) } : null;
}

const said = (raw: RawOutcome) => {
  const error = tiktokError(raw);
  return error?.message ? ` TikTok said: “${error.message}” (${error.code})` : error ? ` (${error.code})` : '';
};
const codeIn =
  (...codes: string[]) =>
  (raw: RawOutcome): boolean =>
    codes.includes(tiktokError(raw)?.code ?? '');
const httpStatus = (raw: RawOutcome) => (raw.type === 'error' ? undefined : raw.status);

/** TikTok sends no reset header: its per-token limits are per minute (6 inits, 30 status reads). */
const RATE_RETRY_MS = 60_000;
/** The daily posting cap (about 15 posts a creator a day) and pending inbox shares free up over hours. */
const DAILY_CAP_RETRY_MS = 3_600_000;

/** The sentence the accounts page and the delivery show for an unaudited app (developers.tiktok.com, Direct Post). */
export const UNAUDITED_REASON =
  'This TikTok app is not audited yet: TikTok lets an unaudited app post only to private accounts, and every post it makes is private (SELF_ONLY). Make the TikTok account private, or have the app audited.';

export const TIKTOK_RULES: readonly Rule[] = [
  ...NETWORK_RULES,
  {
    // init answers `{ data: { publish_id, upload_url? } }`; that id is the publish, not yet a post.
    id: 'tiktok-publish-id-returned',
    when: (raw) =>
      raw.type === 'response' &&
      raw.status >= 200 &&
      raw.status < 300 &&
      tiktokError(raw)?.code === 'ok' &&
      Boolean(asString(asRecord(asRecord(raw.body).data).publish_id)),
    then: (raw) => ({
      outcome: 'sent',
      httpStatus: httpStatus(raw),
      externalId: asString(asRecord(asRecord((raw as { body: unknown }).body).data).publish_id)!,
      reason: 'TikTok accepted the video and returned its publish_id.',
    }),
  },
  {
    id: 'tiktok-token-rejected',
    when: codeIn('access_token_invalid'),
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: httpStatus(raw),
      tokenRejected: true,
      reason: 'TikTok rejected the access token (expired or revoked); reconnect the account.' + said(raw),
    }),
  },
  {
    id: 'tiktok-scope-missing',
    when: codeIn('scope_not_authorized', 'scope_permission_missed'),
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: httpStatus(raw),
      reason:
        'TikTok refused: the account did not grant the publishing permission (video.publish / video.upload); reconnect it and allow every permission.' +
        said(raw),
    }),
  },
  {
    id: 'tiktok-rate-limited',
    when: codeIn('rate_limit_exceeded'),
    then: (raw, { now }) => {
      const retryAt =
        retryAfter(raw.type === 'error' ? {} : raw.headers, now) ?? new Date(now.getTime() + RATE_RETRY_MS);
      return {
        outcome: 'not_sent',
        httpStatus: httpStatus(raw),
        retryAt,
        reason:
          `TikTok is rate limiting this account; nothing was published. Next try after ${retryAt.toISOString()}.` +
          said(raw),
      };
    },
  },
  {
    // A refusal before anything was made: the creator's daily cap, or too many uploads still waiting in the inbox.
    id: 'tiktok-daily-cap',
    when: codeIn('spam_risk_too_many_posts', 'spam_risk_too_many_pending_share'),
    then: (raw, { now }) => {
      const retryAt = new Date(now.getTime() + DAILY_CAP_RETRY_MS);
      return {
        outcome: 'not_sent',
        httpStatus: httpStatus(raw),
        retryAt,
        reason:
          `TikTok’s posting cap for this creator is reached; nothing was published. Next try after ${retryAt.toISOString()}.` +
          said(raw),
      };
    },
  },
  {
    id: 'tiktok-unaudited-client',
    when: codeIn('unaudited_client_can_only_post_to_private_accounts'),
    then: (raw) => ({ outcome: 'failed', httpStatus: httpStatus(raw), reason: UNAUDITED_REASON + said(raw) }),
  },
  {
    id: 'tiktok-privacy-level-refused',
    when: codeIn('privacy_level_option_mismatch'),
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: httpStatus(raw),
      reason: 'TikTok refused the privacy level: it is not one this creator may use now.' + said(raw),
    }),
  },
  {
    id: 'tiktok-url-not-verified',
    when: codeIn('url_ownership_unverified'),
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: httpStatus(raw),
      reason:
        'TikTok pulls videos only from a domain or URL prefix verified for the app: verify this app’s URL (NEXTAUTH_URL) in the TikTok developer portal.' +
        said(raw),
    }),
  },
  {
    id: 'tiktok-posting-blocked',
    when: codeIn('spam_risk_user_banned_from_posting', 'spam_risk_text', 'spam_risk', 'reached_active_user_cap'),
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: httpStatus(raw),
      reason: 'TikTok refused to post for this creator (spam or account restrictions).' + said(raw),
    }),
  },
  {
    id: 'tiktok-invalid-request',
    when: (raw) =>
      httpStatus(raw) !== undefined && httpStatus(raw)! >= 400 && httpStatus(raw)! < 500 && tiktokError(raw) !== null,
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: httpStatus(raw),
      reason: 'TikTok rejected the request.' + said(raw),
    }),
  },
  ...statusRules({ reasonOf: (body) => asString(asRecord(asRecord(body).error).message), retryAtOf: () => undefined }),
];

export function classifyTiktok(raw: RawOutcome, context?: ClassifyContext): Classification {
  return classifyWith(TIKTOK_RULES, raw, context);
}
