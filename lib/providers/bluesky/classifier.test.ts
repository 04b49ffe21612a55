import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { NETWORK_RULES } from '../classify';
import { closedPort } from '@/testing/wire/servers';
import type { Outcome, PublishInput, PublishResult } from '../types';
import { BLUESKY_RULES, classifyBluesky } from './classifier';
import { createBlueskyClient } from './client';

// Every row of the Bluesky table, reached through the real client over a real loopback socket: a PDS
// stand-in answers each XRPC call as the case says. The shared network rows (the same objects as in every
// provider's table) are covered on real sockets by lib/net/send.test.ts and lib/providers/classifier.test.ts.

type Answer = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let answer: Answer = (_req, res) => res.end();
const seen: { method: string; url: string; body: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    seen.push({ method: req.method!, url: req.url!, body });
    answer(req, res, body);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const DID = 'did:plc:abcdefghijklmnopqrstuvwx';
const client = (base = origin) =>
  createBlueskyClient({ baseUrl: base, platformUserId: DID, accessToken: 'jwt', outbound: { trustedOrigin: base } });
const reply = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
};
const URI = `at://${DID}/app.bsky.feed.post/3mfyqao4qlqra`;
const CID = 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm';

async function publish(respond: Answer, input: Partial<PublishInput> = {}): Promise<PublishResult> {
  answer = respond;
  seen.length = 0;
  return client().publish({ text: 'hello', kind: 'post', idempotencyKey: randomUUID(), timeoutMs: 1_000, ...input });
}

type Case = { name: string; respond: Answer; rule: string; outcome: Outcome; check?: (r: PublishResult) => void };

const CASES: Case[] = [
  {
    name: '200 with uri, cid and commit: written',
    respond: reply(200, { uri: URI, cid: CID, commit: { cid: CID, rev: '3mfyqao4qlqra' }, validationStatus: 'valid' }),
    rule: 'bluesky-record-written',
    outcome: 'sent',
    check: (r) => expect(r).toMatchObject({ externalId: URI, url: expect.stringContaining('getRecord') }),
  },
  {
    name: '200 without a commit: the same record was already there (the PDS’s no-op)',
    respond: reply(200, { uri: URI, cid: CID, validationStatus: 'valid' }),
    rule: 'bluesky-record-unchanged',
    outcome: 'sent',
    check: (r) => expect(r.evidence).toMatchObject({ unchanged: true, cid: CID }),
  },
  {
    name: '400 InvalidSwap: another record holds the key → ambiguous with evidence, never failed',
    respond: reply(400, { error: 'InvalidSwap', message: `Record was at ${CID}` }),
    rule: 'bluesky-record-exists',
    outcome: 'ambiguous',
    check: (r) => {
      expect(r.evidence).toMatchObject({ recordExists: true, platformDetail: `Record was at ${CID}` });
      expect(r.evidence!.uri).toMatch(new RegExp(`^at://${DID}/app.bsky.feed.post/[2-7a-j][2-7a-z]{12}$`));
    },
  },
  {
    name: '500 InternalServerError (the PDS’s answer to createRecord on a taken key) → ambiguous, read by key',
    respond: reply(500, { error: 'InternalServerError', message: 'Internal Server Error' }),
    rule: 'bluesky-internal-error',
    outcome: 'ambiguous',
    check: (r) => expect(r.evidence).toMatchObject({ uri: expect.stringMatching(/^at:\/\//) }),
  },
  {
    name: '400 ExpiredToken: nothing written → not_sent',
    respond: reply(400, { error: 'ExpiredToken', message: 'Token has expired' }),
    rule: 'bluesky-expired-token',
    outcome: 'not_sent',
  },
  {
    name: '400 InvalidToken → failed (reconnect)',
    respond: reply(400, { error: 'InvalidToken', message: 'Token could not be verified' }),
    rule: 'bluesky-invalid-token',
    outcome: 'failed',
    check: (r) => expect(r.reason).toContain('Token could not be verified'),
  },
  {
    name: '400 InvalidRequest (lexicon validation) → failed with the PDS’s words',
    respond: reply(400, {
      error: 'InvalidRequest',
      message: 'Invalid app.bsky.feed.post record: grapheme too big (maximum 300, got 301) at $.record.text',
    }),
    rule: 'invalid-request',
    outcome: 'failed',
    check: (r) => expect(r.reason).toContain('grapheme too big'),
  },
  {
    name: '200 without a URI',
    respond: reply(200, { validationStatus: 'valid' }),
    rule: 'success-without-id',
    outcome: 'ambiguous',
  },
  {
    name: '429 RateLimitExceeded with RateLimit-Reset (epoch seconds)',
    respond: reply(
      429,
      { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
      { 'ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 600), 'ratelimit-limit': '5000' },
    ),
    rule: 'rate-limited',
    outcome: 'not_sent',
    check: (r) => expect(r.retryAt!.getTime()).toBeGreaterThan(Date.now() + 590_000),
  },
  { name: '408', respond: reply(408, undefined), rule: 'request-timeout-408', outcome: 'not_sent' },
  {
    name: '500 with another XRPC error',
    respond: reply(500, { error: 'UnknownError', message: 'Something broke' }),
    rule: 'server-error',
    outcome: 'ambiguous',
  },
  {
    name: '502 UpstreamFailure',
    respond: reply(502, { error: 'UpstreamFailure', message: 'Upstream Failure' }),
    rule: 'server-error',
    outcome: 'ambiguous',
  },
  {
    name: '401 AuthMissing',
    respond: reply(401, { error: 'AuthMissing', message: 'Authentication Required' }),
    rule: 'unauthorized',
    outcome: 'failed',
  },
  {
    name: '401 AccountTakedown',
    respond: reply(401, { error: 'AccountTakedown', message: 'Account has been taken down' }),
    rule: 'unauthorized',
    outcome: 'failed',
    check: (r) => expect(r.reason).toContain('AccountTakedown'),
  },
  {
    name: '403 AccountNotFound',
    respond: reply(403, { error: 'AccountNotFound', message: 'Account not found' }),
    rule: 'forbidden',
    outcome: 'failed',
  },
  { name: '404', respond: reply(404, { error: 'NotFound' }), rule: 'not-found', outcome: 'failed' },
  {
    name: '413 PayloadTooLarge',
    respond: reply(413, { error: 'PayloadTooLarge' }),
    rule: 'client-error',
    outcome: 'failed',
  },
  {
    name: '302 (never followed)',
    respond: reply(302, null, { location: 'https://elsewhere.example/' }),
    rule: 'redirected',
    outcome: 'failed',
  },
];

// No HTTP server can finish a response with a 1xx status (clients wait for the final one): this row is
// reached with the raw outcome, as in lib/providers/classifier.test.ts.
const UNREACHABLE_BY_SOCKET = ['unexpected'];

describe('Bluesky classifier, every row over a real socket', () => {
  it.each(CASES)('$name → $outcome ($rule)', async ({ respond, rule, outcome, check }) => {
    const result = await publish(respond);
    expect(result.rule).toBe(rule);
    expect(result.outcome).toBe(outcome);
    expect(result.reason.length).toBeGreaterThan(10);
    // The one write: putRecord with the delivery's key and swapRecord null.
    const put = seen.find((s) => s.url.startsWith('/xrpc/com.atproto.repo.putRecord'));
    expect(JSON.parse(put!.body)).toMatchObject({ repo: DID, collection: 'app.bsky.feed.post', swapRecord: null });
    check?.(result);
  });

  it('network rows on real sockets: refused → not_sent; no answer → ambiguous; reset after the request → ambiguous', async () => {
    const port = await closedPort();
    const refused = await createBlueskyClient({
      baseUrl: `http://127.0.0.1:${port}`,
      platformUserId: DID,
      accessToken: 'jwt',
      outbound: { trustedOrigin: `http://127.0.0.1:${port}` },
    }).publish({ text: 'hi', kind: 'post', idempotencyKey: randomUUID() });
    expect(refused).toMatchObject({ outcome: 'not_sent', rule: 'connection-not-established' });
    const silent = await publish(() => {}, { timeoutMs: 200 });
    expect(silent).toMatchObject({ outcome: 'ambiguous', rule: 'timeout-without-response' });
    expect(silent.evidence).toMatchObject({ uri: expect.stringMatching(/^at:\/\//), rkey: expect.any(String) });
    const reset = await publish((req) => req.socket.destroy());
    expect(reset).toMatchObject({ outcome: 'ambiguous', rule: 'connection-reset' });
  });

  it('a final 1xx answer → ambiguous (unexpected)', () => {
    const raw = { type: 'response' as const, status: 101, headers: {}, body: null, bodyText: '' };
    expect(classifyBluesky(raw)).toMatchObject({ outcome: 'ambiguous', rule: 'unexpected' });
  });

  it('every row has a case: the Bluesky rows above, the network rows shared with every provider', () => {
    expect(BLUESKY_RULES.slice(0, NETWORK_RULES.length)).toEqual(NETWORK_RULES);
    const covered = new Set([...CASES.map((c) => c.rule), ...NETWORK_RULES.map((r) => r.id), ...UNREACHABLE_BY_SOCKET]);
    expect(BLUESKY_RULES.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
  });
});

describe('rules the client applies before its write (nothing written)', () => {
  const PARENT = `at://${DID}/app.bsky.feed.post/3mfyqao4qlqrb`;
  const routes =
    (getRecord: Answer): Answer =>
    (req, res, body) =>
      req.url!.startsWith('/xrpc/com.atproto.repo.getRecord')
        ? getRecord(req, res, body)
        : reply(200, { uri: URI, cid: CID, commit: { cid: CID, rev: 'x' } })(req, res, body);
  const wrote = () => seen.some((s) => s.url.startsWith('/xrpc/com.atproto.repo.putRecord'));

  it('reply target RecordNotFound → failed, no write', async () => {
    const result = await publish(
      routes(reply(400, { error: 'RecordNotFound', message: `Could not locate record: ${PARENT}` })),
      { kind: 'reply', inReplyTo: PARENT },
    );
    expect(result).toMatchObject({ outcome: 'failed', rule: 'bluesky-reply-target-missing' });
    expect(wrote()).toBe(false);
  });

  it('reply target unreadable (503) → not_sent, no write', async () => {
    const result = await publish(routes(reply(503, { error: 'NotEnoughResources' })), {
      kind: 'reply',
      inReplyTo: PARENT,
    });
    expect(result).toMatchObject({ outcome: 'not_sent', rule: 'bluesky-reply-target-unreadable' });
    expect(wrote()).toBe(false);
  });

  it('the reads used the whole budget → not_sent, no write', async () => {
    const slow: Answer = (req, res, body) => setTimeout(() => reply(200, { did: 'did:plc:x' })(req, res, body), 300);
    const result = await publish(slow, { text: 'hi @someone.bsky.social', timeoutMs: 150 });
    expect(result).toMatchObject({ outcome: 'not_sent', rule: 'bluesky-out-of-time' });
    expect(wrote()).toBe(false);
  });

  it('refused before any request: DMs, a reply without a target, text over 300 graphemes', async () => {
    for (const input of [
      { kind: 'dm' as const, recipient: 'did:plc:x' },
      { kind: 'reply' as const },
      { kind: 'reply' as const, inReplyTo: 'https://example.com/not-a-post' },
      { text: '👋🏽'.repeat(301) },
    ]) {
      const result = await publish(reply(200, {}), input);
      expect(result).toMatchObject({ outcome: 'failed', rule: 'invalid-input' });
      expect(seen).toEqual([]);
    }
    // 300 graphemes of 8 bytes each is within the limit.
    expect((await publish(routes(reply(200, {})), { text: '👋🏽'.repeat(300) })).outcome).toBe('sent');
  });
});
