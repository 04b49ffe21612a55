import { NETWORK_RULES, classifyWith, retryAfter, statusRules, type ClassifyContext, type Rule } from '../classify';
import { asRecord, asString } from '../read';
import type { Classification, RawOutcome } from '../types';
import type { MetaNetwork } from './network';

/**
 * Graph API errors as Threads and Instagram send them: `{ error: { message, type, code, error_subcode, is_transient } }`
 * (developers.facebook.com/docs/graph-api/guides/error-handling). Graph answers most errors with HTTP 400,
 * throttling and rejected tokens included, so these rows read the code, never only the HTTP status.
 */
export type GraphError = { message?: string; type?: string; code?: number; subcode?: number; transient?: boolean };

export function graphError(raw: RawOutcome): GraphError | null {
  if (raw.type !== 'response') return null;
  const error = asRecord(asRecord(raw.body).error);
  if (Object.keys(error).length === 0) return null;
  const number = (v: unknown) =>
    typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;
  return {
    message: asString(error.error_user_msg) ?? asString(error.message),
    type: asString(error.type),
    code: number(error.code),
    subcode: number(error.error_subcode),
    transient: typeof error.is_transient === 'boolean' ? error.is_transient : undefined,
  };
}

const graphMessage = (body: unknown) => {
  const error = asRecord(asRecord(body).error);
  return asString(error.error_user_msg) ?? asString(error.message);
};
export const saidBy = (label: string) => (raw: RawOutcome) => {
  const message = graphError(raw)?.message;
  return message ? ` ${label} said: “${message}”` : '';
};
export const codeIs =
  (test: (code: number, error: GraphError) => boolean) =>
  (raw: RawOutcome): boolean => {
    const error = graphError(raw);
    return error?.code !== undefined && test(error.code, error);
  };
export const httpStatus = (raw: RawOutcome) => (raw.type === 'error' ? undefined : raw.status);

/** Graph's throttling codes: app (4), user (17), page (32), application limit (341), calls per hour (613). */
const THROTTLE_CODES = new Set([4, 17, 32, 341, 613]);
/**
 * Graph sends no reset header for these, so the wait is the one every network's 429 without a reset gets
 * (classify.ts): a minute. A longer guess holds a post that long after a momentary throttle, and the publishing
 * quota (250 posts a day) is already kept by our own rate limit (index.ts).
 */
const THROTTLE_RETRY_MS = 60_000;
/** Meta recommends about 30 s between creating a container and publishing it. */
export const CONTAINER_RETRY_MS = 30_000;

const success = (raw: RawOutcome) =>
  raw.type === 'response' && raw.status >= 200 && raw.status < 300 ? asRecord(raw.body) : {};

/**
 * The Graph rows both container networks share, named by network (`threads-…`, `instagram-…`); `own` are a
 * network's extra rows, read before the shared ones that follow the success row.
 */
export function metaGraphRules(
  network: MetaNetwork,
  own: readonly Rule[] = [],
  options: {
    /** More throttling codes of this network (Facebook's page throttle, 80001). */
    throttleCodes?: readonly number[];
    /** When a throttle ends, where the network says so in a header (Facebook's X-Business-Use-Case-Usage). */
    throttleRetryAt?: (raw: RawOutcome, now: Date) => Date | undefined;
  } = {},
): readonly Rule[] {
  const { name, label } = network;
  const throttled = new Set([...THROTTLE_CODES, ...(options.throttleCodes ?? [])]);
  const said = saidBy(label);
  return [
    ...NETWORK_RULES,
    {
      // Both steps answer `{ id }`: the container's id (POST /threads) or the post's media id (threads_publish).
      id: `${name}-id-returned`,
      when: (raw) => Boolean(asString(success(raw).id)) && !success(raw).error,
      then: (raw) => ({
        outcome: 'sent',
        httpStatus: httpStatus(raw),
        externalId: asString(success(raw).id)!,
        reason: `Published; ${label} returned its media id.`,
      }),
    },
    {
      id: `${name}-token-rejected`,
      when: codeIs((code) => code === 190 || code === 102),
      then: (raw) => ({
        outcome: 'failed',
        httpStatus: httpStatus(raw),
        tokenRejected: true,
        reason: `${label} rejected the access token (expired or revoked); reconnect the account.` + said(raw),
      }),
    },
    {
      id: `${name}-rate-limited`,
      when: codeIs((code) => throttled.has(code)),
      then: (raw, { now }) => {
        const retryAt =
          retryAfter(raw.type === 'error' ? {} : raw.headers, now) ??
          options.throttleRetryAt?.(raw, now) ??
          new Date(now.getTime() + THROTTLE_RETRY_MS);
        return {
          outcome: 'not_sent',
          httpStatus: httpStatus(raw),
          retryAt,
          reason:
            `${label} is throttling this account or app; nothing was published. Next try after ${retryAt.toISOString()}.` +
            said(raw),
        };
      },
    },
    ...own,
    {
      // A refusal to publish a container it cannot find (yet): the known race right after creating one.
      id: `${name}-container-not-found`,
      when: codeIs((code, error) => code === 24 && error.subcode === 4279009),
      then: (raw, { now }) => ({
        outcome: 'not_sent',
        httpStatus: httpStatus(raw),
        retryAt: new Date(now.getTime() + CONTAINER_RETRY_MS),
        reason: `${label} could not find the media container (not ready yet); nothing was published.` + said(raw),
      }),
    },
    {
      // "Temporary issue due to downtime": the request may have been carried out before it failed.
      id: `${name}-temporary-error`,
      when: codeIs((code, error) => code === 1 || code === 2 || (error.transient === true && !throttled.has(code))),
      then: (raw) => ({
        outcome: 'ambiguous',
        httpStatus: httpStatus(raw),
        reason: `${label} reported a temporary error: it may have published it before failing.` + said(raw),
      }),
    },
    {
      id: `${name}-permission-denied`,
      when: codeIs((code) => code === 3 || code === 10 || (code >= 200 && code <= 299)),
      then: (raw) => ({
        outcome: 'failed',
        httpStatus: httpStatus(raw),
        reason:
          `${label} refused: the app lacks a permission for this (reconnect with the publishing permissions).` +
          said(raw),
      }),
    },
    {
      id: `${name}-policy-block`,
      when: codeIs((code) => code === 368),
      then: (raw) => ({
        outcome: 'failed',
        httpStatus: httpStatus(raw),
        reason: `${label} has temporarily blocked this account from posting (policy).` + said(raw),
      }),
    },
    {
      id: `${name}-invalid-parameter`,
      when: codeIs((code) => code === 100),
      then: (raw) => ({
        outcome: 'failed',
        httpStatus: httpStatus(raw),
        reason: `${label} rejected the request as invalid.` + said(raw),
      }),
    },
    ...statusRules({ reasonOf: graphMessage, retryAtOf: () => undefined }),
  ];
}

export type GraphClassifier = (raw: RawOutcome, context?: ClassifyContext) => Classification;
export const graphClassifier =
  (rules: readonly Rule[]): GraphClassifier =>
  (raw, context) =>
    classifyWith(rules, raw, context);
