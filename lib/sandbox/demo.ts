import { randomUUID } from 'node:crypto';
import type { Database } from '@/db/client';
import { getAccountWithCredentials } from '@/db/queries/accounts';
import { providerClientForAccount } from '@/lib/providers';
import type { Outcome, PublishResult } from '@/lib/providers/types';
import { getTimeline, type TimelineAccount } from '@/sandbox/http/control';
import { createPgSandboxStore } from '@/sandbox/store/pg-store';
import { workspaceSandboxScope } from './workspace-scope';

export type { TimelineAccount };

// What the Sandbox page does: list the workspace's sandbox timeline, publish a test post through the
// real provider client (over HTTP, like the publisher), and show what a naive retry does.

export type AttemptSummary = {
  outcome: Outcome;
  reason: string;
  rule: string;
  externalId?: string;
  httpStatus?: number;
  durationMs: number;
};

const TEST_POST_TIMEOUT_MS = 3_000;
const NAIVE_TIMEOUT_MS = 2_000;

export type NaiveRetryDemo = NonNullable<Awaited<ReturnType<typeof runNaiveRetryDemo>>>;

export async function workspaceTimeline(
  db: Database,
  params: { workspaceId: string; encryptionKey: string; limit?: number },
): Promise<TimelineAccount[]> {
  const scope = await workspaceSandboxScope(db, params);
  return getTimeline(createPgSandboxStore(db), scope, { limit: params.limit ?? 50 });
}

async function sandboxClient(db: Database, params: { workspaceId: string; accountId: string; encryptionKey: string }) {
  const account = await getAccountWithCredentials(db, params);
  if (!account || !account.sandbox || account.disconnectedAt) return null;
  return { account, client: providerClientForAccount(account, { encryptionKey: params.encryptionKey }) };
}

function summarize(result: PublishResult): AttemptSummary {
  return {
    outcome: result.outcome,
    reason: result.reason,
    rule: result.rule,
    externalId: result.externalId,
    httpStatus: result.httpStatus,
    durationMs: result.durationMs,
  };
}

/** One attempt, classified; never retried (that is the point). Null when the account is not a connected sandbox account here. */
export async function publishTestPost(
  db: Database,
  params: { workspaceId: string; accountId: string; text: string; encryptionKey: string },
): Promise<AttemptSummary | null> {
  const found = await sandboxClient(db, params);
  if (!found) return null;
  const result = await found.client.publish({
    text: params.text,
    kind: 'post',
    idempotencyKey: randomUUID(),
    timeoutMs: TEST_POST_TIMEOUT_MS,
  });
  return summarize(result);
}

/**
 * What Semel never does: on anything but success, send the same post again as a new request
 * (a fresh idempotency key each time, as a naive client would). Returns both attempts and how many
 * copies of the text the platform now holds.
 */
export async function runNaiveRetryDemo(
  db: Database,
  params: { workspaceId: string; accountId: string; encryptionKey: string },
) {
  const found = await sandboxClient(db, params);
  if (!found) return null;
  const text = `Naive retry demo ${new Date().toISOString().slice(11, 19)} #${randomUUID().slice(0, 4)}`;
  const attempts: AttemptSummary[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await found.client.publish({
      text,
      kind: 'post',
      idempotencyKey: randomUUID(),
      timeoutMs: NAIVE_TIMEOUT_MS,
    });
    attempts.push(summarize(result));
    if (result.outcome === 'sent') break;
  }
  const [timeline] = await getTimeline(
    createPgSandboxStore(db),
    (await workspaceSandboxScope(db, params)).filter((s) => s.accountId === params.accountId),
    { limit: 50 },
  );
  const copies = timeline?.posts.filter((p) => p.text === text && !p.deletedAt).length ?? 0;
  return { text, attempts, copies };
}
