import { GET as ready } from './ready/route';

export const dynamic = 'force-dynamic';

/** Kept for existing probes (and Playwright's webServer wait): the same as /api/health/ready. */
export const GET = ready;
