import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isConnectionReset } from '@/sandbox/behaviour/faults';
import { handleSandboxRequest } from './router';
import type { SandboxDeps } from '@/sandbox/store/types';

export type RunningSandbox = { url: string; port: number; close: () => Promise<void> };

/**
 * The sandbox in its own node:http server, as a real platform would run. Here a "reset" fault
 * destroys the socket (a real ECONNRESET), and a client that gives up aborts the request's signal.
 */
export async function startSandboxServer(options: {
  deps: SandboxDeps;
  port?: number;
  host?: string;
  /** false: answer resets the way the Next route must (a body that breaks mid-stream), for tests of that path. */
  destroySocketOnReset?: boolean;
}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(async (req, res) => {
    const abandoned = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abandoned.abort();
    });
    try {
      const request = await toRequest(req, host, abandoned.signal);
      const response = await handleSandboxRequest(request, options.deps);
      if (isConnectionReset(response) && options.destroySocketOnReset !== false) {
        req.socket.destroy();
        return;
      }
      if (abandoned.signal.aborted) return;
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      if (response.body) {
        const reader = response.body.getReader();
        for (let part = await reader.read(); !part.done; part = await reader.read()) res.write(part.value);
      }
      res.end();
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function toRequest(req: IncomingMessage, host: string, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const method = req.method ?? 'GET';
  return new Request(`http://${req.headers.host ?? host}${req.url ?? '/'}`, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' || chunks.length === 0 ? undefined : Buffer.concat(chunks),
    signal,
  });
}
