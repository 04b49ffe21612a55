import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from '@/db/client';
import { readinessResponse } from '@/lib/health/readiness';
import { problem } from '@/lib/http/problem';
import { metricsResponse } from './respond';

/**
 * `npm run worker` has no web server, yet its counters (publishing, reconciling, jobs) live in its own
 * process: this small listener serves the same /api/metrics and /api/health/{live,ready} for it.
 */
export async function startMetricsServer(
  db: Database,
  options: { port: number; token: string | undefined },
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const request = new Request(new URL(req.url ?? '/', 'http://localhost'), {
        headers: { authorization: req.headers.authorization ?? '' },
      });
      const path = new URL(request.url).pathname;
      const response =
        req.method !== 'GET'
          ? problem({ status: 405, title: 'Method Not Allowed' })
          : path === '/api/metrics'
            ? await metricsResponse(request, db, options.token)
            : path === '/api/health/live'
              ? Response.json({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) })
              : path === '/api/health/ready'
                ? await readinessResponse(db)
                : problem({ status: 404, title: 'Not Found' });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(await response.text());
    })().catch(() => {
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // idle keep-alive sockets would hold close() open
      }),
  };
}
