import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// An HTTP proxy on loopback in front of a real server (the reference PDS): each request is forwarded as
// received, and an armed fault breaks one matching exchange at a chosen point, so a test can show both
// sides — what the server did (its answer, logged here) and what the client saw (a failure).

export type Fault =
  /** Forwarded; the server's answer is read, then the client's connection is closed without it. */
  | 'drop-after-answer'
  /** Forwarded; after the server answered, the client's connection is reset (RST). */
  | 'reset-after-answer'
  /** Forwarded; the server's answer is given to the client only after `delayMs` (past its call timeout). */
  | 'delay-answer'
  /** Held before forwarding until `releaseHeld()`: the write reaches the server after the client gave up. */
  | 'hold-request'
  /** Never forwarded and never answered: the client times out, the server never hears of it. */
  | 'lose-request';

export type ArmedFault = { fault: Fault; method: string; path: string; times?: number; delayMs?: number };

export type ProxyExchange = {
  method: string;
  path: string;
  fault: Fault | null;
  /** What the server behind answered (null: it was never asked, or not yet). */
  upstream: { status: number; body: string } | null;
  /** True once the client's connection was gone before it had an answer (its timeout, a drop or a reset). */
  clientGone: boolean;
};

export type FaultProxy = {
  url: string;
  port: number;
  exchanges: ProxyExchange[];
  arm: (fault: ArmedFault) => void;
  /** Forwards every held request now and resolves with their server answers. */
  releaseHeld: () => Promise<ProxyExchange[]>;
  close: () => Promise<void>;
};

type Held = { exchange: ProxyExchange; forward: () => Promise<void> };

export async function startFaultProxy(upstreamUrl: string, options: { port?: number } = {}): Promise<FaultProxy> {
  const upstream = new URL(upstreamUrl);
  const armed: ArmedFault[] = [];
  const exchanges: ProxyExchange[] = [];
  const held: Held[] = [];
  const sockets = new Set<Socket>();

  const takeFault = (method: string, path: string): ArmedFault | null => {
    const index = armed.findIndex((a) => a.method === method && path.split('?')[0] === a.path);
    if (index < 0) return null;
    const fault = armed[index]!;
    if ((fault.times = (fault.times ?? 1) - 1) <= 0) armed.splice(index, 1);
    return fault;
  };

  /** One exchange with the server; resolves with its whole answer. The client's disconnect does not cancel it. */
  function ask(req: IncomingMessage, body: Buffer) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const headers = { ...req.headers, host: upstream.host, connection: 'close' };
      const out = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent: false },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () =>
            resolve({ status: answer.statusCode!, headers: answer.headers, body: Buffer.concat(chunks) }),
          );
          answer.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const path = req.url ?? '/';
    const armedFault = takeFault(req.method ?? 'GET', path);
    const exchange: ProxyExchange = {
      method: req.method ?? 'GET',
      path: path.split('?')[0]!,
      fault: armedFault?.fault ?? null,
      upstream: null,
      clientGone: false,
    };
    exchanges.push(exchange);
    res.on('close', () => {
      if (!res.writableFinished) exchange.clientGone = true;
    });

    const forward = async () => {
      const answer = await ask(req, body);
      exchange.upstream = { status: answer.status, body: answer.body.toString('utf8') };
      return answer;
    };
    const reply = (answer: Awaited<ReturnType<typeof ask>>) => {
      if (res.destroyed) return;
      const headers = { ...answer.headers, 'content-length': String(answer.body.length) };
      delete headers['transfer-encoding'];
      delete headers.connection;
      res.writeHead(answer.status, headers).end(answer.body);
    };

    switch (armedFault?.fault) {
      case undefined:
        return reply(await forward());
      case 'drop-after-answer':
        await forward();
        return req.socket.destroy();
      case 'reset-after-answer':
        await forward();
        return req.socket.resetAndDestroy();
      case 'delay-answer': {
        const answer = await forward();
        await new Promise((resolve) => setTimeout(resolve, armedFault.delayMs ?? 5_000));
        return reply(answer);
      }
      case 'hold-request':
        held.push({ exchange, forward: async () => reply(await forward()) });
        return;
      case 'lose-request':
        return; // the client times out and closes; nothing ever reaches the server
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch(() => req.socket.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    exchanges,
    arm: (fault) => armed.push({ ...fault }),
    releaseHeld: async () => {
      const now = held.splice(0);
      await Promise.all(now.map((h) => h.forward()));
      return now.map((h) => h.exchange);
    },
    close: async () => {
      held.splice(0); // never forwarded: closing writes nothing
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
