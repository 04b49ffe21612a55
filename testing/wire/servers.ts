import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import { Worker } from 'node:worker_threads';
import { TEST_TLS_CERT, TEST_TLS_KEY } from './tls-fixture';

// Loopback servers that misbehave on purpose, for sendOnce's wire facts (lib/net/send.test.ts).
// Each one logs what it received, so a test can show what did (or did not) reach the "platform".

export type Connection = {
  socket: Socket;
  /** Bytes received on this connection (decrypted on a TLS server). */
  received: Buffer;
  /** Complete HTTP requests seen so far on this connection. */
  requests: number;
  closed: Promise<void>;
};
/** Called on every chunk received; `completedRequest` is true when the chunk completed a request. */
export type OnData = (connection: Connection, completedRequest: boolean) => void;

export type TestServer = {
  port: number;
  url: (path?: string) => string;
  connections: Connection[];
  /** Everything received, all connections. */
  received: () => Buffer;
  close: () => Promise<void>;
};

/** A TCP server (or a TLS one with the fixture certificate) that hands each chunk to `onData`. */
export async function startServer(
  kind: 'tcp' | 'tls',
  onData: OnData = () => {},
  onConnection: (connection: Connection) => void = () => {},
): Promise<TestServer> {
  const connections: Connection[] = [];
  const handle = (socket: Socket) => {
    const connection: Connection = {
      socket,
      received: Buffer.alloc(0),
      requests: 0,
      closed: new Promise((resolve) => socket.once('close', () => resolve())),
    };
    connections.push(connection);
    socket.on('error', () => {});
    onConnection(connection);
    socket.on('data', (chunk: Buffer) => {
      connection.received = Buffer.concat([connection.received, chunk]);
      const requests = countRequests(connection.received);
      const completed = requests > connection.requests;
      connection.requests = requests;
      if (!socket.destroyed) onData(connection, completed);
    });
  };
  const server =
    kind === 'tls' ? tls.createServer({ key: TEST_TLS_KEY, cert: TEST_TLS_CERT }, handle) : net.createServer(handle);
  server.on('tlsClientError', () => {});
  const port = await listen(server);
  return {
    port,
    url: (path = '/') => `${kind === 'tls' ? 'https' : 'http'}://127.0.0.1:${port}${path}`,
    connections,
    received: () => Buffer.concat(connections.map((c) => c.received)),
    close: () => closeServer(server, () => connections.map((c) => c.socket)),
  };
}

/**
 * A TCP proxy in front of `upstream`: the test reaches the client-facing socket (`toClient`) to reset it
 * or to write bytes the TLS client will choke on, after the server behind it saw the request.
 */
export async function startProxy(upstreamPort: number): Promise<TestServer & { toClient: Socket[] }> {
  const toClient: Socket[] = [];
  const sockets: Socket[] = [];
  const server = net.createServer((client) => {
    toClient.push(client);
    const upstream = net.connect(upstreamPort, '127.0.0.1');
    sockets.push(client, upstream);
    for (const s of [client, upstream]) s.on('error', () => {});
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await listen(server);
  return {
    port,
    url: (path = '/') => `https://127.0.0.1:${port}${path}`,
    connections: [],
    received: () => Buffer.alloc(0),
    toClient,
    close: () => closeServer(server, () => sockets),
  };
}

/** A port where nothing listens (bound, then closed: the kernel answers a SYN with a reset). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A listener whose accept queue is full: its thread never accepts (blocked in Atomics.wait), and filler
 * connections take the backlog, so the kernel drops further SYNs and a connect hangs with no `connect`.
 */
export async function startFullBacklog(): Promise<{ port: number; close: () => Promise<void> }> {
  const release = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const server = require('node:net').createServer();
     server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
       parentPort.postMessage(server.address().port);
       setImmediate(() => Atomics.wait(workerData, 0, 0));
     });`,
    { eval: true, workerData: release },
  );
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  const fillers: Socket[] = [];
  const close = async () => {
    for (const f of fillers) f.destroy();
    Atomics.store(release, 0, 1);
    Atomics.notify(release, 0);
    await worker.terminate();
  };
  // Fill until a connect does not complete: from then on the queue is full.
  for (let i = 0; i < 16; i++) {
    const filler = net.connect(port, '127.0.0.1');
    filler.on('error', () => {});
    fillers.push(filler);
    const connected = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 300);
      filler.once('connect', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!connected) return { port, close };
  }
  await close();
  throw new Error('Could not fill the accept queue of a loopback listener');
}

/** Complete HTTP/1.1 requests (headers plus Content-Length body) at the start of `buffer`. */
export function countRequests(buffer: Buffer): number {
  let count = 0;
  let offset = 0;
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n', offset);
    if (end < 0) return count;
    const head = buffer.subarray(offset, end).toString('latin1');
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (buffer.length < end + 4 + length) return count;
    offset = end + 4 + length;
    count++;
  }
}

export const HTTP_OK = (body: string, extra = '') =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

function closeServer(server: net.Server, sockets: () => Socket[]): Promise<void> {
  for (const s of sockets()) s.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}
