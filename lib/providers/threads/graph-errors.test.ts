import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createProviderClient } from '..';
import type { ProviderState } from '../types';
import { THREADS_RULES } from './classifier';

// Every Graph answer Threads can give, on a real loopback socket, through the real client: a scripted
// stand-in for graph.threads.net answers each step (container, status, publish) as told, and logs what it
// received, so each row shows the outcome AND that the publish was sent once, never retried.

type Reply = { status: number; body?: unknown; delayMs?: number; hang?: boolean };
type Script = { create?: Reply; status?: Reply; publish?: Reply; list?: Reply };

let script: Script = {};
const received: { method: string; path: string }[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname.replace('/api/sandbox/threads/v1.0', '');
  received.push({ method: req.method ?? '', path });
  const step: keyof Script =
    req.method === 'POST' && path.endsWith('/threads_publish')
      ? 'publish'
      : req.method === 'POST'
        ? 'create'
        : /\/(threads|replies)$/.test(path)
          ? 'list'
          : 'status';
  const defaults: Required<Script> = {
    create: { status: 200, body: { id: 'c1' } },
    status: { status: 200, body: { status: 'FINISHED', id: 'c1' } },
    publish: { status: 200, body: { id: 'm1' } },
    list: { status: 200, body: { data: [] } },
  };
  const reply = script[step] ?? defaults[step];
  if (reply.hang) return; // never answers (the client's timeout ends it)
  setTimeout(() => {
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
    res.writeHead(reply.status, { 'content-type': typeof reply.body === 'string' ? 'text/html' : 'application/json' });
    res.end(text);
  }, reply.delayMs ?? 0);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise((resolve) => server.close(resolve)));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const client = createProviderClient(
  { provider: 'threads', baseUrl: '/api/sandbox/threads', platformUserId: '42', accessToken: 'tok' },
  { origin },
);

async function run(next: Script, options: { state?: ProviderState; timeoutMs?: number } = {}) {
  script = next;
  received.length = 0;
  const saved: ProviderState[] = [];
  const result = await client.publish({
    text: 'hello',
    kind: 'post',
    idempotencyKey: randomUUID(),
    timeoutMs: options.timeoutMs ?? 2_000,
    state: options.state,
    saveState: async (s) => (saved.push(s), true),
  });
  const count = (test: (r: { method: string; path: string }) => boolean) => received.filter(test).length;
  return {
    result,
    saved,
    publishes: count((r) => r.path === '/42/threads_publish'),
    creates: count((r) => r.method === 'POST' && r.path === '/42/threads'),
  };
}

const graph = (code: number, extra: Record<string, unknown> = {}) => ({
  error: { message: `error ${code}`, type: 'OAuthException', code, fbtrace_id: 'A1', ...extra },
});

describe('Threads publish step: every Graph answer', () => {
  const rows: { name: string; publish: Reply; outcome: string; rule: string }[] = [
    {
      name: '200 with the media id',
      publish: { status: 200, body: { id: 'm1' } },
      outcome: 'sent',
      rule: 'threads-id-returned',
    },
    {
      name: '400 code 190 (token expired, 463)',
      publish: { status: 400, body: graph(190, { error_subcode: 463 }) },
      outcome: 'failed',
      rule: 'threads-token-rejected',
    },
    {
      name: '401 code 190',
      publish: { status: 401, body: graph(190) },
      outcome: 'failed',
      rule: 'threads-token-rejected',
    },
    {
      name: '400 code 102 (session)',
      publish: { status: 400, body: graph(102) },
      outcome: 'failed',
      rule: 'threads-token-rejected',
    },
    {
      name: '400 code 4 (app calls, the quota)',
      publish: { status: 400, body: graph(4, { is_transient: true }) },
      outcome: 'not_sent',
      rule: 'threads-rate-limited',
    },
    {
      name: '403 code 17 (user calls)',
      publish: { status: 403, body: graph(17) },
      outcome: 'not_sent',
      rule: 'threads-rate-limited',
    },
    {
      name: '400 code 32 (page calls)',
      publish: { status: 400, body: graph(32) },
      outcome: 'not_sent',
      rule: 'threads-rate-limited',
    },
    {
      name: '400 code 341 (application limit)',
      publish: { status: 400, body: graph(341) },
      outcome: 'not_sent',
      rule: 'threads-rate-limited',
    },
    {
      name: '400 code 613 (calls per hour)',
      publish: { status: 400, body: graph(613) },
      outcome: 'not_sent',
      rule: 'threads-rate-limited',
    },
    {
      name: '400 code 24/4279009 (media not found)',
      publish: { status: 400, body: graph(24, { error_subcode: 4279009 }) },
      outcome: 'not_sent',
      rule: 'threads-container-not-found',
    },
    {
      name: '500 code 1 (unknown)',
      publish: { status: 500, body: graph(1, { is_transient: true }) },
      outcome: 'ambiguous',
      rule: 'threads-temporary-error',
    },
    {
      name: '400 code 2 (service)',
      publish: { status: 400, body: graph(2, { is_transient: true }) },
      outcome: 'ambiguous',
      rule: 'threads-temporary-error',
    },
    {
      name: '400 another transient code',
      publish: { status: 400, body: graph(9004, { is_transient: true }) },
      outcome: 'ambiguous',
      rule: 'threads-temporary-error',
    },
    {
      name: '400 code 10 (permission)',
      publish: { status: 400, body: graph(10) },
      outcome: 'failed',
      rule: 'threads-permission-denied',
    },
    {
      name: '400 code 200 (permission)',
      publish: { status: 400, body: graph(200) },
      outcome: 'failed',
      rule: 'threads-permission-denied',
    },
    {
      name: '400 code 3 (capability)',
      publish: { status: 400, body: graph(3) },
      outcome: 'failed',
      rule: 'threads-permission-denied',
    },
    {
      name: '400 code 368 (policy block)',
      publish: { status: 400, body: graph(368) },
      outcome: 'failed',
      rule: 'threads-policy-block',
    },
    {
      name: '400 code 100 (invalid parameter)',
      publish: { status: 400, body: graph(100) },
      outcome: 'failed',
      rule: 'threads-invalid-parameter',
    },
    {
      name: '502 without a Graph body',
      publish: { status: 502, body: '<html>Bad Gateway</html>' },
      outcome: 'ambiguous',
      rule: 'server-error',
    },
    { name: '429 without a Graph body', publish: { status: 429, body: '' }, outcome: 'not_sent', rule: 'rate-limited' },
    {
      name: '200 without an id',
      publish: { status: 200, body: { success: true } },
      outcome: 'ambiguous',
      rule: 'success-without-id',
    },
    {
      name: 'no answer before the timeout',
      publish: { status: 200, hang: true },
      outcome: 'ambiguous',
      rule: 'timeout-without-response',
    },
  ];

  it.each(rows)('$name → $outcome ($rule), one publish request', async ({ publish, outcome, rule }) => {
    const { result, publishes, creates } = await run({ publish }, { timeoutMs: publish.hang ? 400 : 2_000 });
    expect(result).toMatchObject({ outcome, rule });
    expect(result.reason.length).toBeGreaterThan(10);
    expect(result.evidence).toMatchObject({ containerId: 'c1' });
    expect([creates, publishes]).toEqual([1, 1]);
    if (outcome === 'not_sent') expect(result.retryAt?.getTime() ?? Infinity).toBeGreaterThan(Date.now());
  });

  it('every Threads row of the table is reached by a row here', () => {
    const covered = new Set(rows.map((r) => r.rule));
    const own = THREADS_RULES.map((r) => r.id).filter((id) => id.startsWith('threads-'));
    expect(own.filter((id) => !covered.has(id))).toEqual([]);
  });

  it('a refusal after which the container reads PUBLISHED: an earlier request published it → sent, with the listed post', async () => {
    const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, '+0000');
    const { result, publishes } = await run({
      publish: { status: 400, body: graph(100) },
      status: { status: 200, body: { status: 'PUBLISHED', id: 'c1' } },
      list: { status: 200, body: { data: [{ id: 'm7', text: 'hello', timestamp, permalink: 'https://t.test/m7' }] } },
    });
    expect(result).toMatchObject({ outcome: 'sent', rule: 'threads-container-published', externalId: 'm7' });
    expect(publishes).toBe(1);
  });

  it('PUBLISHED but not listed yet: ambiguous (the reconciler finds the post), never the container’s id as the post', async () => {
    const { result, publishes } = await run({
      publish: { status: 400, body: graph(100) },
      status: { status: 200, body: { status: 'PUBLISHED', id: 'c1' } },
    });
    expect(result).toMatchObject({
      outcome: 'ambiguous',
      rule: 'threads-container-published-unlisted',
      evidence: { containerId: 'c1', status: 'PUBLISHED', listed: false },
    });
    expect(result.externalId).toBeUndefined();
    expect(publishes).toBe(1);
  });

  it('a refusal after which the container reads EXPIRED → not_sent (a new container next time)', async () => {
    const { result } = await run({
      publish: { status: 400, body: graph(100) },
      status: { status: 200, body: { status: 'EXPIRED', id: 'c1' } },
    });
    expect(result).toMatchObject({ outcome: 'not_sent', rule: 'threads-container-expired' });
  });
});

describe('Threads container step (a): nothing public, so never ambiguous', () => {
  const rows: { name: string; create: Reply; outcome: string; rule: string }[] = [
    {
      name: '500',
      create: { status: 500, body: graph(1) },
      outcome: 'not_sent',
      rule: 'threads-container-not-created',
    },
    {
      name: 'no answer before the timeout',
      create: { status: 200, hang: true },
      outcome: 'not_sent',
      rule: 'threads-container-not-created',
    },
    {
      name: '200 without an id',
      create: { status: 200, body: {} },
      outcome: 'not_sent',
      rule: 'threads-container-not-created',
    },
    { name: '400 code 4', create: { status: 400, body: graph(4) }, outcome: 'not_sent', rule: 'threads-rate-limited' },
    {
      name: '400 code 100 (text refused)',
      create: { status: 400, body: graph(100) },
      outcome: 'failed',
      rule: 'threads-invalid-parameter',
    },
    {
      name: '400 code 190',
      create: { status: 400, body: graph(190) },
      outcome: 'failed',
      rule: 'threads-token-rejected',
    },
  ];
  it.each(rows)('$name → $outcome ($rule); nothing kept, no publish', async ({ create, outcome, rule }) => {
    const { result, saved, publishes } = await run({ create }, { timeoutMs: create.hang ? 400 : 2_000 });
    expect(result).toMatchObject({ outcome, rule });
    expect(saved).toEqual([]);
    expect(publishes).toBe(0);
  });

  it('too little time left after the container for a publish → not_sent, the container kept, no publish', async () => {
    const { result, saved, publishes } = await run(
      { create: { status: 200, body: { id: 'c1' }, delayMs: 250 } },
      { timeoutMs: 400 },
    );
    expect(result).toMatchObject({
      outcome: 'not_sent',
      rule: 'threads-no-time-left',
      evidence: { containerId: 'c1' },
    });
    expect(saved).toEqual([{ containerId: 'c1', containerCreatedAt: expect.any(String) }]);
    expect(publishes).toBe(0);
  });
});

describe('Threads status read of a kept container (a read publishes nothing)', () => {
  const kept = { containerId: 'c0', containerCreatedAt: new Date().toISOString() };

  it('503 → not_sent (status unreadable), no publish', async () => {
    const { result, publishes } = await run({ status: { status: 503, body: graph(2) } }, { state: kept });
    expect(result).toMatchObject({ outcome: 'not_sent', rule: 'threads-status-unreadable' });
    expect(publishes).toBe(0);
  });

  it('400 code 190 → failed (reconnect), no publish', async () => {
    const { result, publishes } = await run({ status: { status: 400, body: graph(190) } }, { state: kept });
    expect(result).toMatchObject({ outcome: 'failed', rule: 'threads-token-rejected' });
    expect(publishes).toBe(0);
  });

  it('unknown to Threads (100/33) → a new container is made and kept, then published once', async () => {
    const { result, saved, creates, publishes } = await run(
      { status: { status: 400, body: graph(100, { error_subcode: 33 }) } },
      { state: kept },
    );
    expect(result).toMatchObject({ outcome: 'sent', externalId: 'm1' });
    expect(saved).toEqual([{ containerId: 'c1', containerCreatedAt: expect.any(String) }]);
    expect([creates, publishes]).toEqual([1, 1]);
  });

  it('FINISHED → published without a new container', async () => {
    const { result, saved, creates, publishes } = await run({}, { state: kept });
    expect(result).toMatchObject({ outcome: 'sent', externalId: 'm1', evidence: { containerId: 'c0' } });
    expect([saved.length, creates, publishes]).toEqual([0, 0, 1]);
  });
});
