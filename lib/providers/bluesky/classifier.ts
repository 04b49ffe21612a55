import { NETWORK_RULES, classifyWith, statusRules, type ClassifyContext, type Rule } from '../classify';
import { asRecord, asString } from '../read';
import type { Classification, RawOutcome } from '../types';

/** XRPC errors are `{ error, message }` (error: a name such as `InvalidSwap`; message: for people). */
export function xrpcError(body: unknown): { error?: string; message?: string } {
  const b = asRecord(body);
  return { error: asString(b.error), message: asString(b.message) };
}

function xrpcErrorText(body: unknown): string | undefined {
  const { error, message } = xrpcError(body);
  return error && message ? `${error}: ${message}` : (message ?? error);
}

/** `RateLimit-Reset` is the reset time in epoch seconds (xrpc-server's rate limiter). */
function rateLimitReset(headers: Record<string, string>): Date | undefined {
  const reset = Number(headers['ratelimit-reset']);
  return Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000) : undefined;
}

const errorName = (raw: RawOutcome) => (raw.type === 'response' ? xrpcError(raw.body).error : undefined);
const written = (raw: RawOutcome) => {
  if (raw.type !== 'response' || raw.status < 200 || raw.status >= 300) return null;
  const body = asRecord(raw.body);
  const uri = asString(body.uri);
  return uri?.startsWith('at://') && asString(body.cid) ? { uri, cid: body.cid as string, body } : null;
};

/**
 * putRecord's answers (the PDS source, packages/pds/src/api/com/atproto/repo/putRecord.ts): `{ uri, cid,
 * commit }` when it wrote the record; `{ uri, cid }` without `commit` when the same record was already there
 * (a no-op); 400 `InvalidSwap` when another record holds the key (swapRecord: null refuses to overwrite).
 * Measured on the reference PDS (@atproto/pds 0.5.35, lib/providers/bluesky/pds.test.ts): four identical
 * putRecords at once make one record, one answer with a commit and three without.
 */
export const BLUESKY_RULES: readonly Rule[] = [
  ...NETWORK_RULES,
  {
    // A resend of exactly the record an earlier attempt wrote: the PDS keeps it and answers without a commit.
    id: 'bluesky-record-unchanged',
    when: (raw) => written(raw) !== null && asRecord(written(raw)!.body).commit === undefined,
    then: (raw) => ({
      outcome: 'sent',
      httpStatus: (raw as { status: number }).status,
      externalId: written(raw)!.uri,
      reason: 'Already published: the PDS holds this exact post under the delivery’s record key.',
      evidence: { cid: written(raw)!.cid, unchanged: true },
    }),
  },
  {
    id: 'bluesky-record-written',
    when: (raw) => written(raw) !== null,
    then: (raw) => ({
      outcome: 'sent',
      httpStatus: (raw as { status: number }).status,
      externalId: written(raw)!.uri,
      reason: 'Published; the PDS returned the record’s URI.',
      evidence: { cid: written(raw)!.cid, rev: asString(asRecord(written(raw)!.body.commit).rev) ?? null },
    }),
  },
  {
    // A record already holds this delivery's key (an earlier attempt wrote it, maybe with other facets): one
    // getRecord by the key settles it. Evidence for the reconciler, never a failure.
    id: 'bluesky-record-exists',
    when: (raw) => raw.type === 'response' && raw.status === 400 && errorName(raw) === 'InvalidSwap',
    then: (raw) => ({
      outcome: 'ambiguous',
      httpStatus: 400,
      reason: 'A post already exists under this delivery’s record key: an earlier attempt published it.',
      evidence: { recordExists: true, platformDetail: xrpcError((raw as { body: unknown }).body).message ?? null },
    }),
  },
  {
    // What the PDS answers createRecord on a key that already holds a record (its insert fails inside the write's
    // transaction). Semel writes with putRecord, but a 500 from a write proves nothing: the record key is read.
    id: 'bluesky-internal-error',
    when: (raw) => raw.type === 'response' && raw.status === 500 && errorName(raw) === 'InternalServerError',
    then: () => ({
      outcome: 'ambiguous',
      httpStatus: 500,
      reason: 'The PDS failed while handling the write (500 InternalServerError); its record key is read to know.',
    }),
  },
  {
    // The PDS checks the session before the handler runs: nothing was written. The session is renewed
    // outside the client (the provider's `refresh`); this delivery is tried again later, never here.
    id: 'bluesky-expired-token',
    when: (raw) => raw.type === 'response' && raw.status === 400 && errorName(raw) === 'ExpiredToken',
    then: () => ({
      outcome: 'not_sent',
      httpStatus: 400,
      reason:
        'The Bluesky session had expired, so nothing was published; it is tried again once the session is renewed.',
    }),
  },
  {
    id: 'bluesky-invalid-token',
    when: (raw) => raw.type === 'response' && raw.status === 400 && errorName(raw) === 'InvalidToken',
    then: (raw) => ({
      outcome: 'failed',
      httpStatus: 400,
      tokenRejected: true,
      reason: `The PDS refused the session token; reconnect the account. The platform said: “${xrpcErrorText((raw as { body: unknown }).body)}”`,
    }),
  },
  ...statusRules({ reasonOf: xrpcErrorText, retryAtOf: (headers) => rateLimitReset(headers) }),
];

export function classifyBluesky(raw: RawOutcome, context?: ClassifyContext): Classification {
  return classifyWith(BLUESKY_RULES, raw, context);
}
