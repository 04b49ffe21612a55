import type { LookupFunction, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NETWORK_RULES, classifyWith } from '@/lib/providers/classify';
import { NO_SOCKET, createAgents, sendOnce, type HttpRequest, type Agents, type AgentOptions } from './send';
import { TEST_TLS_CERT } from '@/testing/wire/tls-fixture';
import {
  HTTP_OK,
  closedPort,
  startFullBacklog,
  startProxy,
  startServer,
  type OnData,
  type TestServer,
} from '@/testing/wire/servers';
import type { Classification, RawOutcome } from '@/lib/providers/types';

// sendOnce on real loopback sockets: each network classifier row is reached by a socket that really did
// (or did not) carry the request, and the server's own log shows whether the request arrived.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const produced = new Set<string>();

function agents(options: AgentOptions = { ca: TEST_TLS_CERT }): Agents {
  const t = createAgents(options);
  cleanups.push(() => (t['http:'].destroy(), t['https:'].destroy()));
  return t;
}
async function server(
  kind: 'tcp' | 'tls',
  onData?: OnData,
  onConnection?: Parameters<typeof startServer>[2],
): Promise<TestServer> {
  const s = await startServer(kind, onData, onConnection);
  cleanups.push(s.close);
  return s;
}
const BODY = { status: 'hello from the wire test' };
/** These servers listen on loopback, which the outbound guard refuses: each test trusts its own server's origin. */
const trusted = (url: string) => (URL.canParse(url) ? { outbound: { trustedOrigin: new URL(url).origin } } : {});
const post = (url: string, t: Agents, extra: Partial<HttpRequest> = {}) =>
  sendOnce({ method: 'POST', url, json: BODY, timeoutMs: 2_000, ...trusted(url), ...extra }, t);

/** Classifies with the shared network rows and records which row a real socket reached. */
function classified(raw: RawOutcome): Classification {
  const c = classifyWith(NETWORK_RULES, raw);
  produced.add(c.rule);
  return c;
}
function wireError(raw: RawOutcome) {
  if (raw.type !== 'error') throw new Error(`expected a network error, got ${JSON.stringify(raw)}`);
  return raw;
}
/** The client's sockets currently carrying a request (to inject a socket error, as the kernel would). */
const socketsInUse = (t: Agents, protocol: keyof Agents = 'http:') =>
  Object.values(t[protocol].sockets).flat() as Socket[];
const injected = (code: string) => Object.assign(new Error(`read ${code}`), { code });
/** Gives a late byte time to arrive; the assertions after it say none did. */
const lateBytes = () => new Promise((resolve) => setTimeout(resolve, 100));
const isRequestText = (buffer: Buffer) => buffer.includes('POST ') || buffer.includes(BODY.status);
const TLS_HANDSHAKE_RECORD = 0x16;

describe('not_sent: the request provably never left', () => {
  it('signal aborted before the call: no socket → canceled-before-send', async () => {
    const s = await server('tcp');
    const raw = await post(s.url(), agents(), { signal: AbortSignal.abort() });
    expect(wireError(raw).connection).toEqual(NO_SOCKET);
    expect(classified(raw)).toMatchObject({ rule: 'canceled-before-send', outcome: 'not_sent' });
    await lateBytes();
    expect(s.received().length).toBe(0);
  });

  it('aborted in the same tick as the call, before a socket was assigned → canceled-before-send', async () => {
    const s = await server('tcp');
    const controller = new AbortController();
    const pending = post(s.url(), agents(), { signal: controller.signal });
    controller.abort();
    const raw = wireError(await pending);
    expect(raw).toMatchObject({ name: 'AbortError', connection: { socketAssigned: false, bytesWritten: 0 } });
    expect(classified(raw)).toMatchObject({ rule: 'canceled-before-send', outcome: 'not_sent' });
    await lateBytes();
    expect(s.received().length).toBe(0);
  });

  it('a header node refuses: thrown before any socket → failed-before-socket', async () => {
    const s = await server('tcp');
    const raw = wireError(await post(s.url(), agents(), { headers: { 'x-note': 'line\nbreak' } }));
    expect(raw).toMatchObject({ code: 'ERR_INVALID_CHAR', connection: NO_SOCKET });
    expect(classified(raw)).toMatchObject({ rule: 'failed-before-socket', outcome: 'not_sent' });
    await lateBytes();
    expect(s.connections).toHaveLength(0);
  });

  it('a loopback address the guard refuses: no socket, nothing reaches the server → outbound-refused (failed)', async () => {
    const s = await server('tcp');
    const raw = wireError(await sendOnce({ method: 'POST', url: s.url(), json: BODY, timeoutMs: 2_000 }, agents()));
    expect(raw).toMatchObject({ code: 'OUTBOUND_REFUSED', connection: NO_SOCKET });
    expect(classified(raw)).toMatchObject({ rule: 'outbound-refused', outcome: 'failed' });
    await lateBytes();
    expect(s.connections).toHaveLength(0);
  });

  it('an unusable base URL → invalid-base-url (failed)', async () => {
    const raw = await post('ftp://127.0.0.1/api', agents());
    expect(wireError(raw).connection).toEqual(NO_SOCKET);
    expect(classified(raw)).toMatchObject({ rule: 'invalid-base-url', outcome: 'failed' });
  });

  it('connection refused on a closed port: fresh socket, no connect → connection-not-established', async () => {
    const raw = wireError(await post(`http://127.0.0.1:${await closedPort()}/`, agents()));
    expect(raw).toMatchObject({
      code: 'ECONNREFUSED',
      connection: { socketAssigned: true, reused: false, connected: false, secured: false, bytesWritten: 0 },
    });
    expect(classified(raw)).toMatchObject({ rule: 'connection-not-established', outcome: 'not_sent' });
  });

  // A resolver answer depends on the machine's network; the lookup hook (where the outbound guard plugs in) makes it exact.
  it.each(['ENOTFOUND', 'EAI_AGAIN'])(
    'DNS failure %s before the socket connects (via the agents’ lookup) → connection-not-established',
    async (code) => {
      const lookup: LookupFunction = (hostname, _options, callback) =>
        setImmediate(() =>
          callback(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code, hostname }), '', 4),
        );
      const raw = wireError(await post('http://platform.invalid/api', agents({ lookup })));
      expect(raw).toMatchObject({
        code,
        connection: { socketAssigned: true, reused: false, connected: false, bytesWritten: 0 },
      });
      expect(classified(raw)).toMatchObject({ rule: 'connection-not-established', outcome: 'not_sent' });
    },
  );

  it('a .invalid host through the system resolver: never connects → not_sent (ENOTFOUND here; EAI_AGAIN or a timeout on a slow resolver)', async () => {
    const raw = wireError(await post('http://platform.invalid/api', agents(), { timeoutMs: 2_000 }));
    expect(raw.connection).toMatchObject({ socketAssigned: true, reused: false, connected: false, bytesWritten: 0 });
    expect(classified(raw)).toMatchObject({
      rule: expect.stringMatching(/^(connection-not-established|connect-timeout)$/),
      outcome: 'not_sent',
    });
  });

  it('connect timeout against a listener whose accept queue is full (SYN dropped, no connect) → connect-timeout', async () => {
    const backlog = await startFullBacklog();
    cleanups.push(backlog.close);
    const raw = wireError(await post(`http://127.0.0.1:${backlog.port}/`, agents(), { timeoutMs: 500 }));
    expect(raw).toMatchObject({
      timedOut: true,
      connection: { socketAssigned: true, reused: false, connected: false, bytesWritten: 0 },
    });
    expect(classified(raw)).toMatchObject({ rule: 'connect-timeout', outcome: 'not_sent' });
  });

  it('connect timeout while the lookup never answers → connect-timeout', async () => {
    const raw = wireError(await post('http://platform.invalid/api', agents({ lookup: () => {} }), { timeoutMs: 300 }));
    expect(raw).toMatchObject({
      timedOut: true,
      connection: { socketAssigned: true, connected: false, bytesWritten: 0 },
    });
    expect(classified(raw)).toMatchObject({ rule: 'connect-timeout', outcome: 'not_sent' });
  });

  it('TLS server with an untrusted self-signed certificate: handshake fails, nothing decrypted by the server → tls-handshake-failed', async () => {
    const s = await server('tls');
    const raw = wireError(await post(s.url(), agents({})));
    expect(raw).toMatchObject({
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      connection: { tls: true, connected: true, secured: false, bytesWritten: 0 },
    });
    expect(classified(raw)).toMatchObject({ rule: 'tls-handshake-failed', outcome: 'not_sent' });
    await lateBytes();
    expect(s.received().length).toBe(0);
  });

  it('https to a plain-HTTP server: EPROTO, the server saw only the ClientHello → tls-handshake-failed', async () => {
    const s = await server('tcp', (c) =>
      c.socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n'),
    );
    const raw = wireError(await post(s.url().replace('http:', 'https:'), agents()));
    expect(raw).toMatchObject({
      code: 'EPROTO',
      connection: { tls: true, connected: true, secured: false, bytesWritten: 0 },
    });
    expect(classified(raw)).toMatchObject({ rule: 'tls-handshake-failed', outcome: 'not_sent' });
    expect(s.received()[0]).toBe(TLS_HANDSHAKE_RECORD);
    expect(isRequestText(s.received())).toBe(false);
  });

  it('a reset during the TLS handshake (after reading the ClientHello) → tls-handshake-failed', async () => {
    const s = await server('tcp', (c) => c.socket.resetAndDestroy());
    const raw = wireError(await post(s.url().replace('http:', 'https:'), agents()));
    expect(raw).toMatchObject({
      code: 'ECONNRESET',
      connection: { tls: true, connected: true, secured: false, bytesWritten: 0 },
    });
    expect(classified(raw)).toMatchObject({ rule: 'tls-handshake-failed', outcome: 'not_sent' });
    expect(s.received()[0]).toBe(TLS_HANDSHAKE_RECORD);
  });

  it('a TLS handshake the server never answers, then the whole-call timeout → tls-handshake-failed', async () => {
    const s = await server('tcp');
    const raw = wireError(await post(s.url().replace('http:', 'https:'), agents(), { timeoutMs: 300 }));
    expect(raw).toMatchObject({
      timedOut: true,
      connection: { tls: true, connected: true, secured: false, bytesWritten: 0 },
    });
    expect(classified(raw)).toMatchObject({ rule: 'tls-handshake-failed', outcome: 'not_sent' });
    expect(s.received()[0]).toBe(TLS_HANDSHAKE_RECORD);
  });
});

describe('ambiguous: the request may have reached the platform', () => {
  it('TCP server resets after reading the whole request → connection-reset', async () => {
    const s = await server('tcp', (c, completed) => completed && c.socket.resetAndDestroy());
    const raw = wireError(await post(s.url(), agents()));
    expect(raw).toMatchObject({ code: 'ECONNRESET', connection: { reused: false, connected: true } });
    expect(raw.connection.bytesWritten).toBeGreaterThan(JSON.stringify(BODY).length);
    expect(classified(raw)).toMatchObject({ rule: 'connection-reset', outcome: 'ambiguous' });
    expect(s.connections[0]!.requests).toBe(1);
  });

  it('server reads the request and never answers → timeout-without-response', async () => {
    const s = await server('tcp');
    const raw = wireError(await post(s.url(), agents(), { timeoutMs: 300 }));
    expect(raw).toMatchObject({ timedOut: true, connection: { connected: true } });
    expect(raw.connection.bytesWritten).toBeGreaterThan(0);
    expect(classified(raw)).toMatchObject({ rule: 'timeout-without-response', outcome: 'ambiguous' });
    expect(s.connections[0]!.requests).toBe(1);
  });

  it('TLS server destroys the connection right after the handshake → connection-reset', async () => {
    const s = await server('tls', undefined, (c) => c.socket.destroy());
    const raw = wireError(await post(s.url(), agents()));
    expect(raw.connection).toMatchObject({ tls: true, connected: true, secured: true });
    expect(classified(raw)).toMatchObject({ rule: 'connection-reset', outcome: 'ambiguous' });
  });

  it('TLS server: the connection is reset after the server decrypted the request → connection-reset', async () => {
    const s = await server('tls', (_c, completed) => completed && proxy.toClient[0]!.resetAndDestroy());
    const proxy = await startProxy(s.port);
    cleanups.push(proxy.close);
    const raw = wireError(await post(proxy.url(), agents()));
    expect(raw).toMatchObject({ code: 'ECONNRESET', connection: { tls: true, secured: true } });
    expect(raw.connection.bytesWritten).toBeGreaterThan(JSON.stringify(BODY).length);
    expect(classified(raw)).toMatchObject({ rule: 'connection-reset', outcome: 'ambiguous' });
    expect(s.connections[0]!.requests).toBe(1);
  });

  it('TLS error mid-stream: a corrupt record after the server decrypted the request → tls-error-after-handshake', async () => {
    // An application-data record (type 0x17, TLS 1.2 framing) whose content cannot decrypt.
    const corrupt = Buffer.concat([Buffer.from([0x17, 0x03, 0x03, 0x00, 0x40]), Buffer.alloc(0x40, 0x41)]);
    const s = await server('tls', (_c, completed) => completed && proxy.toClient[0]!.write(corrupt));
    const proxy = await startProxy(s.port);
    cleanups.push(proxy.close);
    const raw = wireError(await post(proxy.url(), agents()));
    expect(raw.code).toMatch(/^ERR_SSL_/);
    expect(raw.connection).toMatchObject({ tls: true, connected: true, secured: true });
    expect(classified(raw)).toMatchObject({ rule: 'tls-error-after-handshake', outcome: 'ambiguous' });
    expect(s.connections[0]!.requests).toBe(1);
  });

  /** Answers the first request on a connection and keeps it alive; `second` handles the next one. */
  const keepAliveServer = (second: (socket: Socket) => void) =>
    server('tcp', (c, completed) => {
      if (!completed) return;
      if (c.requests === 1) c.socket.write(HTTP_OK('{"id":"1"}'));
      else second(c.socket);
    });

  it.each([
    ['resets', (socket: Socket) => socket.resetAndDestroy()],
    ['closes', (socket: Socket) => socket.destroy()],
  ])(
    'keep-alive server %s the reused socket after receiving the second request → connection-reset',
    async (_name, second) => {
      const s = await keepAliveServer(second);
      const t = agents();
      expect(await post(s.url(), t)).toMatchObject({ type: 'response', status: 200 });
      const raw = wireError(await post(s.url(), t));
      expect(raw.connection).toMatchObject({ socketAssigned: true, reused: true, connected: false });
      expect(classified(raw)).toMatchObject({ rule: 'connection-reset', outcome: 'ambiguous' });
      expect(s.connections).toHaveLength(1);
      expect(s.connections[0]!.requests).toBe(2);
    },
  );

  // The kernel reports these on a connection's next read or write; a test hook destroys the client's socket with that code.
  it.each(['EHOSTUNREACH', 'ENETUNREACH', 'ECONNREFUSED', 'ENOTFOUND'])(
    '%s on a reused keep-alive socket, after the server got the request → reused-socket-error',
    async (code) => {
      const t = agents();
      const s = await keepAliveServer(() => socketsInUse(t).forEach((socket) => socket.destroy(injected(code))));
      expect(await post(s.url(), t)).toMatchObject({ type: 'response', status: 200 });
      const raw = wireError(await post(s.url(), t));
      expect(raw).toMatchObject({ code, connection: { reused: true, connected: false, secured: false } });
      expect(classified(raw)).toMatchObject({ rule: 'reused-socket-error', outcome: 'ambiguous' });
      expect(s.connections[0]!.requests).toBe(2);
    },
  );

  it('an error no row names (ETIMEDOUT) after connect on a fresh socket → network-error-after-send', async () => {
    const t = agents();
    const s = await server(
      'tcp',
      (_c, completed) => completed && socketsInUse(t).forEach((socket) => socket.destroy(injected('ETIMEDOUT'))),
    );
    const raw = wireError(await post(s.url(), t));
    expect(raw).toMatchObject({ code: 'ETIMEDOUT', connection: { reused: false, connected: true } });
    expect(classified(raw)).toMatchObject({ rule: 'network-error-after-send', outcome: 'ambiguous' });
  });

  it('canceled by the caller after the server got the request → network-error-after-send', async () => {
    const controller = new AbortController();
    const s = await server('tcp', (_c, completed) => completed && controller.abort());
    const raw = wireError(await post(s.url(), agents(), { signal: controller.signal }));
    expect(raw).toMatchObject({ name: 'AbortError', connection: { connected: true } });
    expect(classified(raw)).toMatchObject({ rule: 'network-error-after-send', outcome: 'ambiguous' });
    expect(s.connections[0]!.requests).toBe(1);
  });

  it('a 200 whose body is cut off → success-body-lost', async () => {
    const s = await server('tcp', (c, completed) => {
      if (!completed) return;
      c.socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"id":');
      setImmediate(() => c.socket.destroy());
    });
    const raw = await post(s.url(), agents());
    expect(raw).toMatchObject({ type: 'body-error', status: 200 });
    expect(classified(raw)).toMatchObject({ rule: 'success-body-lost', outcome: 'ambiguous', httpStatus: 200 });
  });
});

describe('sendOnce guarantees', () => {
  it('one request, a redirect returned as is (never followed)', async () => {
    const s = await server(
      'tcp',
      (c, completed) =>
        completed && c.socket.write('HTTP/1.1 302 Found\r\nlocation: /elsewhere\r\ncontent-length: 0\r\n\r\n'),
    );
    expect(await post(s.url(), agents())).toMatchObject({
      type: 'response',
      status: 302,
      headers: { location: '/elsewhere' },
    });
    await lateBytes();
    expect(s.connections.map((c) => c.requests)).toEqual([1]);
  });

  it('a keep-alive socket reused for many requests gathers no listeners (no MaxListenersExceededWarning)', async () => {
    const s = await server('tcp', (c, completed) => completed && c.socket.write(HTTP_OK('{"id":"1"}')));
    const t = agents();
    for (let i = 0; i < 25; i++) expect(await post(s.url(), t)).toMatchObject({ type: 'response', status: 200 });
    expect(s.connections).toHaveLength(1);
    const [socket] = Object.values(t['http:'].freeSockets).flat() as Socket[];
    expect(socket!.listenerCount('connect')).toBe(0);
    expect(socket!.listenerCount('secureConnect')).toBe(0);
  });

  it('every shared network row was reached by a real socket in this file', () => {
    expect(NETWORK_RULES.map((r) => r.id).filter((id) => !produced.has(id))).toEqual([]);
  });
});
