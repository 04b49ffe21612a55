export const dynamic = 'force-dynamic';

/** Liveness: the process answers. No database call, so a database outage never restarts the app. */
export function GET() {
  return Response.json(
    { status: 'ok', uptimeSeconds: Math.round(process.uptime()) },
    { headers: { 'cache-control': 'no-store' } },
  );
}
