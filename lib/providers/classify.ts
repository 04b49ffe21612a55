import type { Classification, RawOutcome } from './types';

/**
 * Table-driven classification: the first row whose `when` matches decides. Each provider's table is
 * its own rows followed by the shared ones below; every row has a unit test.
 */
export type ClassifyContext = { now: Date };
export type Rule = {
  id: string;
  when: (raw: RawOutcome) => boolean;
  then: (raw: RawOutcome, context: ClassifyContext) => Omit<Classification, 'rule'>;
};

export function classifyWith(
  rules: readonly Rule[],
  raw: RawOutcome,
  context: ClassifyContext = { now: new Date() },
): Classification {
  const rule = rules.find((r) => r.when(raw));
  // The last shared row matches everything, so this only guards a table assembled without it.
  if (!rule) return { outcome: 'ambiguous', rule: 'unmatched', reason: 'Unrecognised outcome; treated as unknown.' };
  return { rule: rule.id, ...rule.then(raw, context) };
}

/** Why a connection never came up, for people; the wire facts decide, these only word the reason. */
const NEVER_CONNECTED_REASONS: Record<string, string> = {
  ECONNREFUSED: 'The platform refused the connection; nothing was sent.',
  ENOTFOUND: 'The platform’s host name did not resolve (DNS); nothing was sent.',
  EAI_AGAIN: 'The platform’s host name could not be resolved right now (DNS); nothing was sent.',
  ENETUNREACH: 'The platform’s network was unreachable; nothing was sent.',
  EHOSTUNREACH: 'The platform’s host was unreachable; nothing was sent.',
  UND_ERR_CONNECT_TIMEOUT: 'Connecting to the platform timed out; nothing was sent.',
};
const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_VERIFY_LEAF_SIGNATURE$|UNABLE_TO_GET_ISSUER_CERT|EPROTO$)/;
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

const errorOf = (raw: RawOutcome) => (raw.type === 'error' ? raw : null);
const statusOf = (raw: RawOutcome) => (raw.type === 'error' ? null : raw.status);
const evidenceOf = (raw: RawOutcome) =>
  raw.type === 'error'
    ? { code: raw.code, message: raw.message, timedOut: raw.timedOut, connection: raw.connection }
    : raw.type === 'body-error'
      ? { code: raw.code, message: raw.message, timedOut: raw.timedOut }
      : undefined;
const isAbort = (raw: RawOutcome) =>
  ['AbortError', 'TimeoutError'].includes(errorOf(raw)?.name ?? '') || errorOf(raw)?.code === 'ABORTED_BEFORE_SEND';

// The only failures that prove nothing was sent (docs/architecture.md#network-classification). A fresh socket only: a reused one has no
// connect of its own, so an error there can come after the request was written.
/** No socket was ever given to the request. */
const neverHadSocket = (raw: RawOutcome) => errorOf(raw)?.connection.socketAssigned === false;
/** A fresh socket whose TCP connect never completed, and no request byte passed on. */
const neverConnected = (raw: RawOutcome) => {
  const c = errorOf(raw)?.connection;
  return Boolean(c && c.socketAssigned && !c.reused && !c.connected && !c.secured && c.bytesWritten === 0);
};
/** https on a fresh socket: TCP connected, the TLS handshake never completed, so no request byte was encrypted and sent. */
const handshakeNeverCompleted = (raw: RawOutcome) => {
  const c = errorOf(raw)?.connection;
  return Boolean(c && c.socketAssigned && c.tls && !c.reused && c.connected && !c.secured && c.bytesWritten === 0);
};

/** Failures before any response: was the request provably never sent (not_sent) or possibly sent (ambiguous)? */
export const NETWORK_RULES: readonly Rule[] = [
  {
    id: 'invalid-base-url',
    when: (raw) => errorOf(raw)?.code === 'ERR_INVALID_URL' || errorOf(raw)?.message === 'bad port',
    then: (raw) => ({
      outcome: 'failed',
      reason: 'The account’s base URL is not a usable URL; fix it on the Accounts page.',
      evidence: evidenceOf(raw),
    }),
  },
  {
    // The outbound guard refused the address before any connection (lib/net/outbound-guard.ts); retrying won't help.
    id: 'outbound-refused',
    when: (raw) => errorOf(raw)?.code === 'OUTBOUND_REFUSED',
    then: (raw) => ({
      outcome: 'failed',
      reason:
        'This address is on a private or internal network, so it is not called; nothing was sent. A self-hoster can allow it with OUTBOUND_ALLOWED_HOSTS.',
      evidence: evidenceOf(raw),
    }),
  },
  {
    id: 'canceled-before-send',
    when: (raw) => neverHadSocket(raw) && isAbort(raw),
    then: (raw) => ({
      outcome: 'not_sent',
      reason: 'Canceled before a connection was given to the request; nothing was sent.',
      evidence: evidenceOf(raw),
    }),
  },
  {
    id: 'failed-before-socket',
    when: neverHadSocket,
    then: (raw) => ({
      outcome: 'not_sent',
      reason: `The request was refused in this process before any connection (${errorOf(raw)!.code ?? errorOf(raw)!.message}); nothing was sent.`,
      evidence: evidenceOf(raw),
    }),
  },
  {
    id: 'connect-timeout',
    when: (raw) => neverConnected(raw) && errorOf(raw)!.timedOut,
    then: (raw) => ({
      outcome: 'not_sent',
      reason: 'Connecting to the platform timed out; nothing was sent.',
      evidence: evidenceOf(raw),
    }),
  },
  {
    id: 'connection-not-established',
    when: neverConnected,
    then: (raw) => ({
      outcome: 'not_sent',
      reason:
        NEVER_CONNECTED_REASONS[errorOf(raw)!.code ?? ''] ??
        (isAbort(raw)
          ? 'Canceled while connecting to the platform; nothing was sent.'
          : 'The connection to the platform was never established; nothing was sent.'),
      evidence: evidenceOf(raw),
    }),
  },
  {
    id: 'tls-handshake-failed',
    when: handshakeNeverCompleted,
    then: (raw) => ({
      outcome: 'not_sent',
      reason: errorOf(raw)!.timedOut
        ? 'The TLS handshake with the platform timed out; nothing was sent.'
        : 'The TLS handshake with the platform failed; nothing was sent.',
      evidence: evidenceOf(raw),
    }),
  },
  // Everything below: a socket was connected (or reused), so the request may have reached the platform.
  {
    id: 'timeout-without-response',
    when: (raw) => errorOf(raw)?.timedOut === true,
    then: (raw) => ({
      outcome: 'ambiguous',
      reason: 'No answer before the timeout: the platform may have published it.',
      evidence: evidenceOf(raw),
    }),
  },
  {
    id: 'connection-reset',
    when: (raw) =>
      RESET_CODES.has(errorOf(raw)?.code ?? '') ||
      /socket hang up|other side closed/i.test(errorOf(raw)?.message ?? ''),
    then: (raw) => ({
      outcome: 'ambiguous',
      reason: 'The connection was closed before an answer: the platform may have published it.',
      evidence: evidenceOf(raw),
    }),
  },
  {
    id: 'tls-error-after-handshake',
    when: (raw) => TLS_CODE.test(errorOf(raw)?.code ?? ''),
    then: (raw) => ({
      outcome: 'ambiguous',
      reason: 'A TLS error after the secure connection was up: the platform may have published it.',
      evidence: evidenceOf(raw),
    }),
  },
  {
    id: 'reused-socket-error',
    when: (raw) => errorOf(raw)?.connection.reused === true,
    then: (raw) => ({
      outcome: 'ambiguous',
      reason: `The connection reused from an earlier call failed (${errorOf(raw)!.code ?? errorOf(raw)!.message}): the platform may have published it.`,
      evidence: evidenceOf(raw),
    }),
  },
  {
    id: 'network-error-after-send',
    when: (raw) => raw.type === 'error',
    then: (raw) => ({
      outcome: 'ambiguous',
      reason: 'The request failed after it may have reached the platform.',
      evidence: evidenceOf(raw),
    }),
  },
  {
    id: 'success-body-lost',
    when: (raw) => raw.type === 'body-error' && raw.status >= 200 && raw.status < 300,
    then: (raw) => ({
      outcome: 'ambiguous',
      httpStatus: statusOf(raw)!,
      reason: 'The platform accepted it but the answer was cut off: published, id unknown.',
      evidence: evidenceOf(raw),
    }),
  },
];

export type StatusRuleOptions = {
  /** The platform's own error message in a response body. */
  reasonOf: (body: unknown) => string | undefined;
  /** When a rate limit resets, from the platform's headers. */
  retryAtOf: (headers: Record<string, string>, now: Date) => Date | undefined;
};

/** Answers by HTTP status (after the provider's own success and special-case rows). */
export function statusRules({ reasonOf, retryAtOf }: StatusRuleOptions): Rule[] {
  const platformSays = (raw: RawOutcome) => {
    const said = raw.type === 'response' ? reasonOf(raw.body) : undefined;
    return said ? ` The platform said: “${said}”` : '';
  };
  const status = (test: (s: number) => boolean) => (raw: RawOutcome) => {
    const s = statusOf(raw);
    return s !== null && test(s);
  };
  const failed = (reason: string) => (raw: RawOutcome) => ({
    outcome: 'failed' as const,
    httpStatus: statusOf(raw)!,
    reason: reason + platformSays(raw),
  });
  return [
    {
      id: 'success-without-id',
      when: status((s) => s >= 200 && s < 300),
      then: (raw) => ({
        outcome: 'ambiguous',
        httpStatus: statusOf(raw)!,
        reason: 'The platform accepted it but the answer had no post id.',
        evidence: { body: raw.type === 'response' ? raw.bodyText : null },
      }),
    },
    {
      id: 'rate-limited',
      when: status((s) => s === 429),
      then: (raw, { now }) => {
        const headers = raw.type === 'error' ? {} : raw.headers;
        const retryAt = retryAtOf(headers, now) ?? retryAfter(headers, now) ?? new Date(now.getTime() + 60_000);
        return {
          outcome: 'not_sent',
          httpStatus: 429,
          retryAt,
          reason: `Rate limited by the platform; nothing was published. Next try after ${retryAt.toISOString()}.`,
        };
      },
    },
    {
      id: 'request-timeout-408',
      when: status((s) => s === 408),
      then: () => ({
        outcome: 'not_sent',
        httpStatus: 408,
        reason: 'The platform timed out receiving the request (408); it was not processed.',
      }),
    },
    {
      id: 'server-error',
      when: status((s) => s >= 500),
      then: (raw) => ({
        outcome: 'ambiguous',
        httpStatus: statusOf(raw)!,
        reason: `The platform answered ${statusOf(raw)}: it may have published it before failing.` + platformSays(raw),
      }),
    },
    {
      id: 'unauthorized',
      when: status((s) => s === 401),
      then: (raw) => ({
        ...failed('The platform rejected the access token (401); reconnect the account.')(raw),
        tokenRejected: true,
      }),
    },
    { id: 'forbidden', when: status((s) => s === 403), then: failed('The platform refused this post (403).') },
    {
      id: 'invalid-request',
      when: status((s) => s === 400 || s === 422),
      then: failed('The platform rejected the post as invalid.'),
    },
    {
      id: 'not-found',
      when: status((s) => s === 404),
      then: failed('Not found on the platform (404): check the base URL, the reply target or the recipient.'),
    },
    {
      id: 'client-error',
      when: status((s) => s >= 400 && s < 500),
      then: (raw) => failed(`The platform rejected the request (${statusOf(raw)}).`)(raw),
    },
    {
      id: 'redirected',
      when: status((s) => s >= 300 && s < 400),
      then: (raw) => ({
        outcome: 'failed',
        httpStatus: statusOf(raw)!,
        reason: 'The platform redirected the request, so it was not processed: check the account’s base URL.',
      }),
    },
    {
      id: 'unexpected',
      when: () => true,
      then: (raw) => ({
        outcome: 'ambiguous',
        httpStatus: statusOf(raw) ?? undefined,
        reason: 'Unexpected answer from the platform; treated as unknown.',
      }),
    },
  ];
}

/** Standard Retry-After: seconds or an HTTP date. */
export function retryAfter(headers: Record<string, string>, now: Date): Date | undefined {
  const value = headers['retry-after'];
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return new Date(now.getTime() + Number(value) * 1000);
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
