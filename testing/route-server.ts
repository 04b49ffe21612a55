import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// Each route types its own params; they are built here from the path.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (request: Request, context: { params: Promise<any> }) => Promise<Response>;
/** A route file's method exports. */
type RouteModule = Partial<Record<'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE', Handler>>;

/**
 * Route handlers over real HTTP on loopback (a request body streams in as it arrives, a dropped connection is a
 * dropped connection), without building the app. `routes` maps Next paths (`/api/media/[sha256]`) to route files.
 */
export async function serveRoutes(routes: Record<string, RouteModule>) {
  const table = Object.entries(routes).map(([pattern, route]) => ({
    route,
    names: [...pattern.matchAll(/\[(\w+)\]/g)].map((m) => m[1]!),
    match: new RegExp(`^${pattern.replace(/\[\w+\]/g, '([^/]+)')}$`),
  }));
  const server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const found = table.map((t) => ({ ...t, values: t.match.exec(url.pathname) })).find((t) => t.values);
    const handler = found?.route[req.method as keyof RouteModule];
    if (!found || !handler) return void res.writeHead(404).end();
    const params = Object.fromEntries(found.names.map((name, i) => [name, decodeURIComponent(found.values![i + 1]!)]));
    const controller = new AbortController();
    req.once('close', () => !req.complete && controller.abort());
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(url, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
      signal: controller.signal,
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit);
    try {
      const response = await handler(request, { params: Promise.resolve(params) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body && req.method !== 'HEAD') await pipeline(Readable.fromWeb(response.body as never), res);
      else res.end();
    } catch {
      res.destroy();
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
