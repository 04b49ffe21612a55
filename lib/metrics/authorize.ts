import { timingSafeEqual } from 'node:crypto';
import { problem } from '@/lib/http/problem';

/**
 * /api/metrics is off (404, as if absent) without a token, and needs `Authorization: Bearer <token>`
 * otherwise. Null when allowed, else the response to return.
 */
export function checkMetricsToken(request: Request, token: string | undefined): Response | null {
  if (!token)
    return problem({ status: 404, title: 'Not Found', detail: 'Metrics are off: set METRICS_TOKEN to turn them on.' });
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(request.headers.get('authorization') ?? '');
  if (given.length === expected.length && timingSafeEqual(given, expected)) return null;
  return problem(
    { status: 401, title: 'Unauthorized', detail: 'Send Authorization: Bearer $METRICS_TOKEN.' },
    { 'www-authenticate': 'Bearer' },
  );
}
