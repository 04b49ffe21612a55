import { describe, expect, it } from 'vitest';
import type { Rule } from './classify';
import { MASTODON_RULES, classifyMastodon } from './mastodon/classifier';
import { NO_SOCKET } from '@/lib/net/send';
import { FACEBOOK_RULES, classifyFacebook } from './facebook/classifier';
import { INSTAGRAM_RULES, classifyInstagram } from './instagram/classifier';
import { THREADS_RULES, classifyThreads } from './threads/classifier';
import { TIKTOK_RULES, UNAUDITED_REASON, classifyTiktok } from './tiktok/classifier';
import { LINKEDIN_RULES, classifyLinkedin } from './linkedin/classifier';
import { LINKEDIN_COMMENT_RULES, classifyLinkedinComment } from './linkedin/comments';
import type { Classification, ConnectionFacts, Outcome, RawOutcome } from './types';
import { X_RULES, classifyX } from './x/classifier';
import { YOUTUBE_RULES, classifyYoutube } from './youtube/classifier';

// One case per classifier row (per provider), and a check that no row is left without a case.

const now = new Date('2026-03-01T12:00:00Z');
// What the socket did (lib/net/send.ts observes it; send.test.ts drives these on real sockets).
const wire = (facts: Partial<ConnectionFacts>): ConnectionFacts => ({ ...NO_SOCKET, socketAssigned: true, ...facts });
const CONNECTING = wire({}); // fresh socket, TCP connect never completed
const SENT = wire({ connected: true, bytesWritten: 180 });
const TLS_HANDSHAKING = wire({ tls: true, connected: true });
const TLS_SENT = wire({ tls: true, connected: true, secured: true, bytesWritten: 180 });
const REUSED = wire({ reused: true, bytesWritten: 180 });
const REUSED_NOTHING_WRITTEN = wire({ reused: true });
const error = (code: string | null, extra: Partial<Extract<RawOutcome, { type: 'error' }>> = {}): RawOutcome => ({
  type: 'error',
  code,
  name: 'Error',
  message: 'request failed',
  timedOut: false,
  connection: SENT,
  ...extra,
});
const response = (status: number, body: unknown = null, headers: Record<string, string> = {}): RawOutcome => ({
  type: 'response',
  status,
  headers,
  body,
  bodyText: JSON.stringify(body),
});
const bodyError = (status: number): RawOutcome => ({
  type: 'body-error',
  status,
  headers: {},
  code: 'UND_ERR_SOCKET',
  message: 'terminated',
  timedOut: false,
});

type Case = { name: string; raw: RawOutcome; rule: string; outcome: Outcome; check?: (c: Classification) => void };

const SHARED: Case[] = [
  {
    name: 'refused by the outbound guard (private address)',
    raw: error('OUTBOUND_REFUSED', { connection: NO_SOCKET }),
    rule: 'outbound-refused',
    outcome: 'failed',
  },
  {
    name: 'refused by the outbound guard when DNS answered a private address',
    raw: error('OUTBOUND_REFUSED', { connection: CONNECTING }),
    rule: 'outbound-refused',
    outcome: 'failed',
  },
  {
    name: 'canceled before the request left',
    raw: error('ABORTED_BEFORE_SEND', { name: 'AbortError', connection: NO_SOCKET }),
    rule: 'canceled-before-send',
    outcome: 'not_sent',
  },
  {
    name: 'whole-call timeout before a socket was assigned',
    raw: error(null, { name: 'TimeoutError', timedOut: true, connection: NO_SOCKET }),
    rule: 'canceled-before-send',
    outcome: 'not_sent',
  },
  {
    name: 'a header refused before any socket',
    raw: error('ERR_INVALID_CHAR', { connection: NO_SOCKET }),
    rule: 'failed-before-socket',
    outcome: 'not_sent',
  },
  {
    name: 'connection refused on a fresh socket',
    raw: error('ECONNREFUSED', { connection: CONNECTING }),
    rule: 'connection-not-established',
    outcome: 'not_sent',
  },
  {
    name: 'DNS: host not found',
    raw: error('ENOTFOUND', { connection: CONNECTING }),
    rule: 'connection-not-established',
    outcome: 'not_sent',
  },
  {
    name: 'DNS: temporary failure',
    raw: error('EAI_AGAIN', { connection: CONNECTING }),
    rule: 'connection-not-established',
    outcome: 'not_sent',
  },
  {
    name: 'host unreachable while connecting',
    raw: error('EHOSTUNREACH', { connection: CONNECTING }),
    rule: 'connection-not-established',
    outcome: 'not_sent',
  },
  {
    name: 'network unreachable while connecting',
    raw: error('ENETUNREACH', { connection: CONNECTING }),
    rule: 'connection-not-established',
    outcome: 'not_sent',
  },
  {
    name: 'connect timeout (undici code)',
    raw: error('UND_ERR_CONNECT_TIMEOUT', { connection: CONNECTING }),
    rule: 'connection-not-established',
    outcome: 'not_sent',
  },
  {
    name: 'canceled by the caller while connecting',
    raw: error(null, { name: 'AbortError', connection: CONNECTING }),
    rule: 'connection-not-established',
    outcome: 'not_sent',
  },
  {
    name: 'whole-call timeout while connecting (no connect event)',
    raw: error(null, { name: 'TimeoutError', timedOut: true, connection: CONNECTING }),
    rule: 'connect-timeout',
    outcome: 'not_sent',
  },
  {
    name: 'TLS certificate rejected during the handshake',
    raw: error('CERT_HAS_EXPIRED', { connection: TLS_HANDSHAKING }),
    rule: 'tls-handshake-failed',
    outcome: 'not_sent',
  },
  {
    name: 'reset during the TLS handshake',
    raw: error('ECONNRESET', { connection: TLS_HANDSHAKING }),
    rule: 'tls-handshake-failed',
    outcome: 'not_sent',
  },
  {
    name: 'timeout during the TLS handshake',
    raw: error(null, { name: 'TimeoutError', timedOut: true, connection: TLS_HANDSHAKING }),
    rule: 'tls-handshake-failed',
    outcome: 'not_sent',
  },
  {
    name: 'invalid base URL',
    raw: error('ERR_INVALID_URL', { connection: NO_SOCKET }),
    rule: 'invalid-base-url',
    outcome: 'failed',
  },
  {
    name: 'timeout after sending',
    raw: error(null, { name: 'TimeoutError', timedOut: true }),
    rule: 'timeout-without-response',
    outcome: 'ambiguous',
  },
  {
    name: 'timeout on a reused socket',
    raw: error(null, { name: 'TimeoutError', timedOut: true, connection: REUSED }),
    rule: 'timeout-without-response',
    outcome: 'ambiguous',
  },
  { name: 'connection reset', raw: error('ECONNRESET'), rule: 'connection-reset', outcome: 'ambiguous' },
  {
    name: 'reset after the TLS handshake',
    raw: error('ECONNRESET', { connection: TLS_SENT }),
    rule: 'connection-reset',
    outcome: 'ambiguous',
  },
  {
    name: 'reset on a reused keep-alive socket',
    raw: error('ECONNRESET', { connection: REUSED }),
    rule: 'connection-reset',
    outcome: 'ambiguous',
  },
  {
    name: 'socket closed by the other side (undici)',
    raw: error('UND_ERR_SOCKET'),
    rule: 'connection-reset',
    outcome: 'ambiguous',
  },
  {
    name: 'socket hang up',
    raw: error(null, { message: 'socket hang up' }),
    rule: 'connection-reset',
    outcome: 'ambiguous',
  },
  {
    name: 'TLS error mid-stream, after secureConnect',
    raw: error('ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC', { connection: TLS_SENT }),
    rule: 'tls-error-after-handshake',
    outcome: 'ambiguous',
  },
  {
    name: 'TLS protocol error (EPROTO) after secureConnect',
    raw: error('EPROTO', { connection: TLS_SENT }),
    rule: 'tls-error-after-handshake',
    outcome: 'ambiguous',
  },
  {
    name: 'TLS error on a reused socket',
    raw: error('ERR_SSL_BAD_RECORD_MAC', { connection: { ...REUSED, tls: true } }),
    rule: 'tls-error-after-handshake',
    outcome: 'ambiguous',
  },
  {
    name: 'EHOSTUNREACH on a reused socket',
    raw: error('EHOSTUNREACH', { connection: REUSED }),
    rule: 'reused-socket-error',
    outcome: 'ambiguous',
  },
  {
    name: 'ENETUNREACH on a reused socket',
    raw: error('ENETUNREACH', { connection: REUSED }),
    rule: 'reused-socket-error',
    outcome: 'ambiguous',
  },
  {
    name: 'ECONNREFUSED on a reused socket',
    raw: error('ECONNREFUSED', { connection: REUSED }),
    rule: 'reused-socket-error',
    outcome: 'ambiguous',
  },
  {
    name: 'ENOTFOUND on a reused socket',
    raw: error('ENOTFOUND', { connection: REUSED }),
    rule: 'reused-socket-error',
    outcome: 'ambiguous',
  },
  {
    name: 'EHOSTUNREACH on a reused socket with no byte counted yet',
    raw: error('EHOSTUNREACH', { connection: REUSED_NOTHING_WRITTEN }),
    rule: 'reused-socket-error',
    outcome: 'ambiguous',
  },
  {
    name: 'EHOSTUNREACH after connect on a fresh socket',
    raw: error('EHOSTUNREACH'),
    rule: 'network-error-after-send',
    outcome: 'ambiguous',
  },
  {
    name: 'refused but bytes were counted (facts disagree: assume sent)',
    raw: error('ECONNREFUSED', { connection: wire({ bytesWritten: 1 }) }),
    rule: 'network-error-after-send',
    outcome: 'ambiguous',
  },
  {
    name: 'canceled by the caller after connect',
    raw: error(null, { name: 'AbortError' }),
    rule: 'network-error-after-send',
    outcome: 'ambiguous',
  },
  { name: 'unknown network error', raw: error('EWHATEVER'), rule: 'network-error-after-send', outcome: 'ambiguous' },
  {
    name: '2xx whose body broke off',
    raw: bodyError(200),
    rule: 'success-body-lost',
    outcome: 'ambiguous',
    check: (c) => expect(c.httpStatus).toBe(200),
  },
  { name: '2xx without an id', raw: response(200, { ok: true }), rule: 'success-without-id', outcome: 'ambiguous' },
  { name: '408 request timeout', raw: response(408), rule: 'request-timeout-408', outcome: 'not_sent' },
  { name: '500', raw: response(500), rule: 'server-error', outcome: 'ambiguous' },
  { name: '503 whose body broke off', raw: bodyError(503), rule: 'server-error', outcome: 'ambiguous' },
  { name: '401 with an unreadable body', raw: bodyError(401), rule: 'unauthorized', outcome: 'failed' },
  { name: '404', raw: response(404), rule: 'not-found', outcome: 'failed' },
  { name: '413 payload too large', raw: response(413), rule: 'client-error', outcome: 'failed' },
  { name: '302 redirect', raw: response(302, null, { location: '/elsewhere' }), rule: 'redirected', outcome: 'failed' },
  { name: '1xx / anything else', raw: response(101), rule: 'unexpected', outcome: 'ambiguous' },
];

const X_CASES: Case[] = [
  {
    name: '201 with a tweet id',
    raw: response(201, { data: { id: '1790', text: 'hi' } }),
    rule: 'x-tweet-created',
    outcome: 'sent',
    check: (c) => expect(c.externalId).toBe('1790'),
  },
  {
    name: '201 with a DM event id',
    raw: response(201, { data: { dm_conversation_id: '1-2', dm_event_id: '55' } }),
    rule: 'x-dm-created',
    outcome: 'sent',
    check: (c) => expect(c).toMatchObject({ externalId: '55', evidence: { dmConversationId: '1-2' } }),
  },
  {
    name: '403 duplicate content → evidence, not failure',
    raw: response(403, {
      detail: 'You are not allowed to create a Tweet with duplicate content.',
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
    }),
    rule: 'x-duplicate-content',
    outcome: 'ambiguous',
    check: (c) => expect(c.evidence).toMatchObject({ duplicateContent: true }),
  },
  {
    name: '429 with x-rate-limit-reset',
    raw: response(429, { title: 'Too Many Requests' }, { 'x-rate-limit-reset': String(now.getTime() / 1000 + 900) }),
    rule: 'rate-limited',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 900_000)),
  },
  {
    name: '429 with only Retry-After',
    raw: response(429, null, { 'retry-after': '30' }),
    rule: 'rate-limited',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 30_000)),
  },
  {
    name: '429 without headers → a minute',
    raw: response(429),
    rule: 'rate-limited',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 60_000)),
  },
  {
    name: '401 with X’s body',
    raw: response(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' }),
    rule: 'unauthorized',
    outcome: 'failed',
    check: (c) => expect(c.reason).toMatch(/reconnect the account/),
  },
  {
    name: '403 other than duplicate',
    raw: response(403, { detail: 'You are not permitted to perform this action.', title: 'Forbidden' }),
    rule: 'forbidden',
    outcome: 'failed',
    check: (c) => expect(c.reason).toContain('You are not permitted to perform this action.'),
  },
  {
    name: '400 invalid request names the parameter',
    raw: response(400, { errors: [{ message: '$.text must be at most 280 characters.' }], title: 'Invalid Request' }),
    rule: 'invalid-request',
    outcome: 'failed',
    check: (c) => expect(c.reason).toContain('$.text must be at most 280 characters.'),
  },
  ...SHARED,
];

const MASTODON_CASES: Case[] = [
  {
    name: '200 with a status',
    raw: response(200, { id: '110', url: 'https://m.example/@me/110', uri: 'https://m.example/users/me/statuses/110' }),
    rule: 'mastodon-status-created',
    outcome: 'sent',
    check: (c) => expect(c).toMatchObject({ externalId: '110', url: 'https://m.example/@me/110' }),
  },
  {
    name: '429 with ISO X-RateLimit-Reset',
    raw: response(429, { error: 'Too many requests' }, { 'x-ratelimit-reset': '2026-03-01T12:05:00.000Z' }),
    rule: 'rate-limited',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date('2026-03-01T12:05:00.000Z')),
  },
  {
    name: '422 validation failed',
    raw: response(422, { error: 'Validation failed: Text character limit of 500 exceeded' }),
    rule: 'invalid-request',
    outcome: 'failed',
    check: (c) => expect(c.reason).toContain('Text character limit of 500 exceeded'),
  },
  {
    name: '401 invalid token',
    raw: response(401, { error: 'The access token is invalid' }),
    rule: 'unauthorized',
    outcome: 'failed',
  },
  {
    name: '403 forbidden',
    raw: response(403, { error: 'This action is not allowed' }),
    rule: 'forbidden',
    outcome: 'failed',
  },
  {
    name: '503 from the instance',
    raw: response(503, { error: 'Service Unavailable' }),
    rule: 'server-error',
    outcome: 'ambiguous',
  },
  {
    name: 'a duplicate-looking 403 is not special on Mastodon',
    raw: response(403, { error: 'duplicate content' }),
    rule: 'forbidden',
    outcome: 'failed',
  },
  ...SHARED,
];

const LINKEDIN_DUPLICATE = {
  errorDetailType: 'com.linkedin.common.error.BadRequest',
  message:
    'com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of urn:li:share:7295588489876647936',
  errorDetails: { inputErrors: [{ description: 'Duplicate post is detected', input: {}, code: 'DUPLICATE_POST' }] },
  status: 422,
};

const LINKEDIN_CASES: Case[] = [
  {
    name: '201 with the post URN in x-restli-id (empty body)',
    raw: response(201, null, { 'x-restli-id': 'urn:li:share:6844785523593134080' }),
    rule: 'linkedin-post-created',
    outcome: 'sent',
    check: (c) => expect(c).toMatchObject({ externalId: 'urn:li:share:6844785523593134080', httpStatus: 201 }),
  },
  {
    name: '201 whose body broke off still names the post (the URN is a header)',
    raw: {
      ...(bodyError(201) as Extract<RawOutcome, { type: 'body-error' }>),
      headers: { 'x-restli-id': 'urn:li:ugcPost:7' },
    },
    rule: 'linkedin-post-created',
    outcome: 'sent',
    check: (c) => expect(c.externalId).toBe('urn:li:ugcPost:7'),
  },
  {
    name: '201 without a post URN → unknown',
    raw: response(201, null, { 'x-restli-id': 'not-a-urn' }),
    rule: 'success-without-id',
    outcome: 'ambiguous',
  },
  {
    name: '422 DUPLICATE_POST naming the existing URN → evidence, not failure',
    raw: response(422, LINKEDIN_DUPLICATE),
    rule: 'linkedin-duplicate-post',
    outcome: 'ambiguous',
    check: (c) => {
      expect(c.evidence).toMatchObject({ duplicateOf: 'urn:li:share:7295588489876647936' });
      expect((c.evidence as { platformDetail: string }).platformDetail).toMatch(/^Content is a duplicate of/);
    },
  },
  {
    name: '422 "Content is a duplicate of …" in the message only',
    raw: response(422, { message: 'Content is a duplicate of urn:li:ugcPost:123', status: 422 }),
    rule: 'linkedin-duplicate-post',
    outcome: 'ambiguous',
    check: (c) => expect(c.evidence).toMatchObject({ duplicateOf: 'urn:li:ugcPost:123' }),
  },
  {
    name: '422 with only the structured DUPLICATE_POST code (no URN)',
    raw: response(422, { errorDetails: { inputErrors: [{ code: 'DUPLICATE_POST' }] }, status: 422 }),
    rule: 'linkedin-duplicate-post',
    outcome: 'ambiguous',
    check: (c) => expect(c.evidence).toMatchObject({ duplicateContent: true }),
  },
  {
    name: '422 validation error → failed with LinkedIn’s message',
    raw: response(422, {
      message: 'ERROR :: /commentary :: field is required but not found and has no default value\n',
      status: 422,
    }),
    rule: 'invalid-request',
    outcome: 'failed',
    check: (c) => expect(c.reason).toContain('/commentary :: field is required'),
  },
  {
    name: '401 invalid token → failed, reconnect',
    raw: response(401, {
      status: 401,
      serviceErrorCode: 65600,
      code: 'INVALID_ACCESS_TOKEN',
      message: 'Invalid access token',
    }),
    rule: 'unauthorized',
    outcome: 'failed',
    check: (c) => expect(c.reason).toMatch(/reconnect the account/),
  },
  {
    name: '403 posting as a page without the role → failed',
    raw: response(403, {
      status: 403,
      code: 'ACCESS_DENIED',
      message:
        'Unpermitted fields present in REQUEST_BODY: Data Processing Exception while processing fields [/author]',
    }),
    rule: 'forbidden',
    outcome: 'failed',
    check: (c) => expect(c.reason).toContain('[/author]'),
  },
  {
    name: '426 version not active → failed, names the setting',
    raw: response(426, { status: 426, code: 'NONEXISTENT_VERSION', message: 'Requested version 202201 is not active' }),
    rule: 'linkedin-version-inactive',
    outcome: 'failed',
    check: (c) => expect(c.reason).toMatch(/LINKEDIN_API_VERSION.*202201 is not active/),
  },
  {
    name: '429 daily limit → not_sent until midnight UTC',
    raw: response(429, {
      status: 429,
      serviceErrorCode: 101,
      code: 'TOO_MANY_REQUESTS',
      message: 'Resource level throttle MEMBER DAY limit for calls to this resource is reached.',
    }),
    rule: 'linkedin-daily-limit',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date('2026-03-02T00:00:00Z')),
  },
  {
    name: '429 throttle without headers → not_sent, a minute',
    raw: response(429, { status: 429, message: 'Too Many Requests' }),
    rule: 'rate-limited',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 60_000)),
  },
  {
    name: '500 from LinkedIn → unknown',
    raw: response(500, { status: 500, message: 'Internal Server Error' }),
    rule: 'server-error',
    outcome: 'ambiguous',
  },
  {
    name: '504 gateway timeout → unknown',
    raw: response(504, { status: 504, message: 'Gateway Timeout' }),
    rule: 'server-error',
    outcome: 'ambiguous',
  },
  ...SHARED,
];

const graph = (code: number, extra: Record<string, unknown> = {}) => ({
  error: { message: `(#${code}) error`, type: 'OAuthException', code, fbtrace_id: 'A1', ...extra },
});

const THREADS_CASES: Case[] = [
  {
    name: '200 with a media id',
    raw: response(200, { id: '17890' }),
    rule: 'threads-id-returned',
    outcome: 'sent',
    check: (c) => expect(c.externalId).toBe('17890'),
  },
  {
    name: '400 code 190 (expired token; Graph sends 400, not 401)',
    raw: response(400, graph(190, { error_subcode: 463 })),
    rule: 'threads-token-rejected',
    outcome: 'failed',
    check: (c) => expect(c.reason).toMatch(/reconnect the account/),
  },
  {
    name: '400 code 4 (throttled; no reset header) → a minute, as any 429 without a reset',
    raw: response(400, graph(4, { is_transient: true })),
    rule: 'threads-rate-limited',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 60_000)),
  },
  {
    name: '400 code 613 with Retry-After',
    raw: response(400, graph(613), { 'retry-after': '120' }),
    rule: 'threads-rate-limited',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 120_000)),
  },
  {
    name: '400 code 24 / 4279009 (container not found yet)',
    raw: response(400, graph(24, { error_subcode: 4279009, error_user_msg: 'The media with id 1 cannot be found.' })),
    rule: 'threads-container-not-found',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 30_000)),
  },
  {
    name: '500 code 1 (temporary)',
    raw: response(500, graph(1, { is_transient: true })),
    rule: 'threads-temporary-error',
    outcome: 'ambiguous',
  },
  {
    name: '400 code 10 (permission)',
    raw: response(400, graph(10)),
    rule: 'threads-permission-denied',
    outcome: 'failed',
  },
  {
    name: '400 code 368 (policy block)',
    raw: response(400, graph(368)),
    rule: 'threads-policy-block',
    outcome: 'failed',
  },
  {
    name: '400 code 100 names the parameter',
    raw: response(400, graph(100, { message: '(#100) Param text must be at most 500 characters long.' })),
    rule: 'threads-invalid-parameter',
    outcome: 'failed',
    check: (c) => expect(c.reason).toContain('at most 500 characters'),
  },
  {
    name: '400 code 24 without the subcode is invalid, not "not found"',
    raw: response(400, graph(24)),
    rule: 'invalid-request',
    outcome: 'failed',
  },
  { name: '429 without a Graph body', raw: response(429), rule: 'rate-limited', outcome: 'not_sent' },
  { name: '401 without a Graph body', raw: response(401, { message: 'no' }), rule: 'unauthorized', outcome: 'failed' },
  { name: '403 without a Graph body', raw: response(403), rule: 'forbidden', outcome: 'failed' },
  ...SHARED,
];

/** TikTok's envelope: `{ data, error: { code, message, log_id } }`. */
const tiktok = (code: string, data: unknown = {}, message = '') => ({
  data,
  error: { code, message, log_id: '2026X' },
});

const TIKTOK_CASES: Case[] = [
  {
    name: '200 ok with a publish_id (the publish, not yet a post)',
    raw: response(200, tiktok('ok', { publish_id: 'v_pub_url~v2-1.123', upload_url: 'https://upload.example/' })),
    rule: 'tiktok-publish-id-returned',
    outcome: 'sent',
    check: (c) => expect(c.externalId).toBe('v_pub_url~v2-1.123'),
  },
  {
    name: '200 ok without a publish_id',
    raw: response(200, tiktok('ok')),
    rule: 'success-without-id',
    outcome: 'ambiguous',
  },
  {
    name: '401 access_token_invalid',
    raw: response(401, tiktok('access_token_invalid', {}, 'The access token is invalid or not found in the request.')),
    rule: 'tiktok-token-rejected',
    outcome: 'failed',
    check: (c) => expect(c.tokenRejected).toBe(true),
  },
  {
    name: '401 scope_not_authorized',
    raw: response(401, tiktok('scope_not_authorized')),
    rule: 'tiktok-scope-missing',
    outcome: 'failed',
  },
  {
    name: '429 rate_limit_exceeded (no reset header) → a minute',
    raw: response(429, tiktok('rate_limit_exceeded')),
    rule: 'tiktok-rate-limited',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 60_000)),
  },
  {
    name: '403 spam_risk_too_many_posts (the daily cap) → an hour, nothing made',
    raw: response(403, tiktok('spam_risk_too_many_posts')),
    rule: 'tiktok-daily-cap',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 3_600_000)),
  },
  {
    name: '403 unaudited_client_can_only_post_to_private_accounts',
    raw: response(403, tiktok('unaudited_client_can_only_post_to_private_accounts')),
    rule: 'tiktok-unaudited-client',
    outcome: 'failed',
    check: (c) => expect(c.reason).toContain(UNAUDITED_REASON),
  },
  {
    name: '400 privacy_level_option_mismatch',
    raw: response(400, tiktok('privacy_level_option_mismatch')),
    rule: 'tiktok-privacy-level-refused',
    outcome: 'failed',
  },
  {
    name: '403 url_ownership_unverified',
    raw: response(403, tiktok('url_ownership_unverified')),
    rule: 'tiktok-url-not-verified',
    outcome: 'failed',
    check: (c) => expect(c.reason).toMatch(/verif/),
  },
  {
    name: '403 spam_risk_user_banned_from_posting',
    raw: response(403, tiktok('spam_risk_user_banned_from_posting')),
    rule: 'tiktok-posting-blocked',
    outcome: 'failed',
  },
  {
    name: '400 invalid_params names what TikTok said',
    raw: response(400, tiktok('invalid_params', {}, 'The title must be at most 2200 characters.')),
    rule: 'tiktok-invalid-request',
    outcome: 'failed',
    check: (c) => expect(c.reason).toContain('at most 2200'),
  },
  {
    name: '500 internal_error: it may have been done',
    raw: response(500, tiktok('internal_error')),
    rule: 'server-error',
    outcome: 'ambiguous',
  },
  { name: '429 without the envelope', raw: response(429), rule: 'rate-limited', outcome: 'not_sent' },
  { name: '403 without the envelope', raw: response(403), rule: 'forbidden', outcome: 'failed' },
  { name: '400 without the envelope', raw: response(400), rule: 'invalid-request', outcome: 'failed' },
  ...SHARED,
];

/** Google's error body: `{ error: { code, message, errors: [{ message, domain, reason }] } }`. */
const google = (code: number, reason: string, message = 'The request failed.', domain = 'youtube.api') => ({
  error: { code, message, errors: [{ message, domain, reason }] },
});

const YOUTUBE_CASES: Case[] = [
  {
    name: '403 quotaExceeded → not_sent until a minute past midnight Pacific Time',
    raw: response(403, google(403, 'quotaExceeded', 'You have exceeded your <a href="/q">quota</a>.', 'youtube.quota')),
    rule: 'youtube-quota-exceeded',
    outcome: 'not_sent',
    // 12:00 UTC on 1 March is 04:00 PST: the reset is 08:00 UTC the next day.
    check: (c) => {
      expect(c.retryAt).toEqual(new Date('2026-03-02T08:01:00Z'));
      expect(c.reason).not.toContain('<a');
    },
  },
  {
    name: '403 rateLimitExceeded → a minute',
    raw: response(403, google(403, 'rateLimitExceeded', 'Too many requests.', 'usageLimits')),
    rule: 'youtube-rate-limited',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 60_000)),
  },
  {
    name: '400 uploadLimitExceeded (the channel’s upload limit) → an hour, nothing started',
    raw: response(
      400,
      google(400, 'uploadLimitExceeded', 'The user has exceeded the number of videos they may upload.'),
    ),
    rule: 'youtube-upload-limit',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 3_600_000)),
  },
  {
    name: '401 authError: the token, a reconnect (the shared row)',
    raw: response(401, google(401, 'authError', 'Invalid Credentials', 'global')),
    rule: 'unauthorized',
    outcome: 'failed',
    check: (c) => expect(c.tokenRejected).toBe(true),
  },
  {
    name: '400 with another reason (a bad request)',
    raw: response(400, google(400, 'invalidContentRange', 'Content-Range does not match.')),
    rule: 'invalid-request',
    outcome: 'failed',
  },
  {
    name: '400 invalidTitle',
    raw: response(400, google(400, 'invalidTitle', 'The request metadata specifies an invalid video title.')),
    rule: 'youtube-metadata-refused',
    outcome: 'failed',
    check: (c) => expect(c.reason).toContain('invalid video title'),
  },
  {
    name: '403 forbidden (the channel cannot upload)',
    raw: response(403, google(403, 'forbidden', 'Access forbidden.')),
    rule: 'youtube-forbidden',
    outcome: 'failed',
  },
  {
    name: '503 backendError: it may have been done',
    raw: response(503, google(503, 'backendError', 'Backend Error', 'global')),
    rule: 'server-error',
    outcome: 'ambiguous',
  },
  {
    name: '429 without a reason',
    raw: response(429, google(429, 'other')),
    rule: 'rate-limited',
    outcome: 'not_sent',
  },
  { name: '403 without Google’s body', raw: response(403), rule: 'forbidden', outcome: 'failed' },
  ...SHARED,
];

function suite(
  name: string,
  rules: readonly Rule[],
  classify: (raw: RawOutcome, context: { now: Date }) => Classification,
  cases: Case[],
) {
  describe(`${name} classifier`, () => {
    it.each(cases)('$name → $outcome ($rule)', ({ raw, rule, outcome, check }) => {
      const classified = classify(raw, { now });
      expect(classified.rule).toBe(rule);
      expect(classified.outcome).toBe(outcome);
      expect(classified.reason.length).toBeGreaterThan(10);
      // The wire facts travel with the classification, for the reconciler and the post page.
      if (raw.type === 'error') expect(classified.evidence).toMatchObject({ connection: raw.connection });
      check?.(classified);
    });

    it('every row of the table has a case', () => {
      const covered = new Set(cases.map((c) => c.rule));
      expect(rules.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
    });
  });
}

suite('X', X_RULES, classifyX, X_CASES);
suite('Mastodon', MASTODON_RULES, classifyMastodon, MASTODON_CASES);
suite('Threads', THREADS_RULES, classifyThreads, THREADS_CASES);

// Instagram shares Graph's rows (named instagram-…) and adds its own two.
const INSTAGRAM_CASES: Case[] = [
  ...THREADS_CASES.map((c) => ({ ...c, rule: c.rule.replace(/^threads-/, 'instagram-') })),
  {
    name: '400 code 9007 / 2207027 (the media is not ready for publishing)',
    raw: response(400, graph(9007, { error_subcode: 2207027 })),
    rule: 'instagram-media-not-ready',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 30_000)),
  },
  {
    name: '400 code 9 / 2207042 (publishing limit reached) → wait half an hour, never fail',
    raw: response(400, graph(9, { error_subcode: 2207042 })),
    rule: 'instagram-publishing-limit',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 30 * 60_000)),
  },
  {
    name: '400 code 352 (video format not supported)',
    raw: response(400, graph(352)),
    rule: 'instagram-media-refused',
    outcome: 'failed',
  },
];
suite('Instagram', INSTAGRAM_RULES, classifyInstagram, INSTAGRAM_CASES);

// Facebook shares Graph's rows (named facebook-…) and adds its own: the duplicate refusal, media refusals and the
// page throttle, whose wait Facebook names in X-Business-Use-Case-Usage.
const FACEBOOK_CASES: Case[] = [
  ...THREADS_CASES.map((c) => ({ ...c, rule: c.rule.replace(/^threads-/, 'facebook-') })),
  {
    name: '400 code 506 (duplicate status message) → ambiguous with evidence, never sent or failed',
    raw: response(400, graph(506)),
    rule: 'facebook-duplicate-post',
    outcome: 'ambiguous',
    check: (c) => {
      expect(c.evidence).toMatchObject({ duplicate: true });
      expect(c.externalId).toBeUndefined();
    },
  },
  {
    name: '400 code 80001 (page throttled) with X-Business-Use-Case-Usage → wait the minutes Facebook names',
    raw: response(400, graph(80001, { is_transient: true }), {
      'x-business-use-case-usage': JSON.stringify({
        '1234': [
          { type: 'pages', call_count: 100, total_cputime: 40, total_time: 60, estimated_time_to_regain_access: 7 },
        ],
      }),
    }),
    rule: 'facebook-rate-limited',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 7 * 60_000)),
  },
  {
    name: '400 code 32 (page request limit) without a usage header → a minute',
    raw: response(400, graph(32)),
    rule: 'facebook-rate-limited',
    outcome: 'not_sent',
    check: (c) => expect(c.retryAt).toEqual(new Date(now.getTime() + 60_000)),
  },
  {
    name: '400 code 6000 (problem uploading the video file)',
    raw: response(400, graph(6000)),
    rule: 'facebook-video-refused',
    outcome: 'failed',
  },
  {
    name: '400 code 324 (missing or invalid image file)',
    raw: response(400, graph(324)),
    rule: 'facebook-photo-refused',
    outcome: 'failed',
  },
  {
    name: '400 code 368 (temporarily blocked for policy violations)',
    raw: response(400, graph(368)),
    rule: 'facebook-policy-block',
    outcome: 'failed',
  },
];
suite('Facebook', FACEBOOK_RULES, classifyFacebook, FACEBOOK_CASES);
suite('TikTok', TIKTOK_RULES, classifyTiktok, TIKTOK_CASES);
suite('LinkedIn', LINKEDIN_RULES, classifyLinkedin, LINKEDIN_CASES);

const COMMENT_URN = 'urn:li:comment:(urn:li:activity:7096760097833439232,7096760097833439999)';
/** A comment's answers (linkedin/comments.ts): its own success row, then LinkedIn's rows a comment can meet. */
const LINKEDIN_COMMENT_CASES: Case[] = [
  {
    name: '201 with the comment (commentUrn) → sent, named by its URN',
    raw: response(
      201,
      { commentUrn: COMMENT_URN, id: '7096760097833439999' },
      { 'x-restli-id': '7096760097833439999' },
    ),
    rule: 'linkedin-comment-created',
    outcome: 'sent',
    check: (c) => expect(c.externalId).toBe(COMMENT_URN),
  },
  {
    name: '201 naming the comment by its Rest.li $URN only',
    raw: response(201, { $URN: COMMENT_URN }),
    rule: 'linkedin-comment-created',
    outcome: 'sent',
    check: (c) => expect(c.externalId).toBe(COMMENT_URN),
  },
  {
    name: '201 whose body names no comment (only x-restli-id) → unknown: the post’s comments settle it',
    raw: response(201, null, { 'x-restli-id': '7096760097833439999' }),
    rule: 'success-without-id',
    outcome: 'ambiguous',
  },
  {
    name: '201 whose body broke off → unknown (a comment’s URN is in its body, not a header)',
    raw: bodyError(201),
    rule: 'success-body-lost',
    outcome: 'ambiguous',
  },
  {
    name: '429 “Comment create throttled” → not_sent, a minute',
    raw: response(429, { status: 429, message: 'Comment create throttled: creation rate limit exceeded for member' }),
    rule: 'rate-limited',
    outcome: 'not_sent',
  },
  {
    name: 'a 422 naming a duplicate is no special row for a comment: failed with LinkedIn’s words',
    raw: response(422, LINKEDIN_DUPLICATE),
    rule: 'invalid-request',
    outcome: 'failed',
  },
  ...LINKEDIN_CASES.filter((c) => LINKEDIN_COMMENT_RULES.some((r) => r.id === c.rule)),
];
suite(
  'LinkedIn comment',
  LINKEDIN_COMMENT_RULES,
  (raw, context) => classifyLinkedinComment(raw, context),
  LINKEDIN_COMMENT_CASES,
);
suite('YouTube', YOUTUBE_RULES, classifyYoutube, YOUTUBE_CASES);
