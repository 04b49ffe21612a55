import { getDb } from '@/db/client';
import { checkCronSecret } from '@/lib/cron/authorize';
import { problem } from '@/lib/http/problem';
import { aliasedJobs, findJob, jobAliases, jobs } from '@/lib/jobs/registry';
import { runJob } from '@/lib/jobs/run';

export const dynamic = 'force-dynamic';
export const maxDuration = 60;

const KNOWN = [...jobs.map((job) => job.name), ...Object.keys(jobAliases)].join(', ');

/**
 * For cron hosts (SCHEDULER_ENABLED=false): runs one pass of a registry job and answers its summary; an
 * alias (`maintenance`) answers `{ <job name>: summary }`. Any number of concurrent calls and instances are
 * safe: the jobs' guards are atomic statements.
 */
export async function POST(request: Request, context: { params: Promise<{ job: string }> }) {
  // The secret first, so an unauthenticated caller learns nothing, not even which job names exist.
  const denied = checkCronSecret(request);
  if (denied) return denied;
  const { job: name } = await context.params;
  const job = findJob(name);
  if (job) return Response.json(await runJob(getDb(), job));
  const aliased = aliasedJobs(name);
  if (!aliased)
    return problem({ status: 404, title: 'Not Found', detail: `No background job by that name. Jobs: ${KNOWN}.` });
  const summaries: Record<string, unknown> = {};
  for (const each of aliased) summaries[each.name] = await runJob(getDb(), each);
  return Response.json(summaries);
}
