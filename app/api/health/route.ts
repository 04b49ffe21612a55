import { sql } from 'drizzle-orm';
import { getDb } from '@/db/client';

export const dynamic = 'force-dynamic';

export async function GET() {
  const started = performance.now();
  try {
    await getDb().execute(sql`select 1`);
    return Response.json({ status: 'ok', database: { status: 'up', latencyMs: Math.round(performance.now() - started) } });
  } catch {
    return Response.json({ status: 'degraded', database: { status: 'down' } }, { status: 503 });
  }
}
