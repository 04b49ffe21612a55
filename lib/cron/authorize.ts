import { timingSafeEqual } from 'node:crypto';
import { getEnv } from '@/lib/env';
import { problem } from '@/lib/http/problem';

/** Cron routes need `Authorization: Bearer $CRON_SECRET`; null when allowed, else the 401 to return. */
export function checkCronSecret(request: Request): Response | null {
  const expected = Buffer.from(`Bearer ${getEnv().CRON_SECRET}`);
  const given = Buffer.from(request.headers.get('authorization') ?? '');
  if (given.length === expected.length && timingSafeEqual(given, expected)) return null;
  return problem(
    { status: 401, title: 'Unauthorized', detail: 'Send Authorization: Bearer $CRON_SECRET.' },
    { 'www-authenticate': 'Bearer' },
  );
}
