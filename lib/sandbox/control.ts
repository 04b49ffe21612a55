import { z } from 'zod';
import { problem } from '@/lib/http/problem';
import { faultsInput, json, type FaultsInput } from './faults';
import type { FaultSettings, SandboxDeps, SandboxStore, ScopedAccount } from './types';

// The control side of the sandbox (fault knobs and the timeline of every copy), scoped to what one caller may see.

export type TimelinePost = { id: string; kind: string; text: string; inReplyToId: string | null; recipientId: string | null; idempotencyKey: string | null; createdAt: string };
export type TimelineAccount = {
  accountId: string;
  provider: 'x' | 'mastodon';
  handle: string;
  platformUserId: string;
  disconnected: boolean;
  /** Every copy ever published on this account (the posts list may be cut at `limit`). */
  total: number;
  faults: FaultSettings;
  posts: TimelinePost[];
};

export async function getTimeline(store: SandboxStore, scope: ScopedAccount[], options: { accountId?: string; limit: number }): Promise<TimelineAccount[]> {
  const chosen = options.accountId ? scope.filter((s) => s.accountId === options.accountId) : scope;
  const totals = await store.countPosts(chosen.map((s) => s.account.id));
  return Promise.all(chosen.map(async (s) => {
    const [faults, posts] = await Promise.all([
      store.getFaults(s.account.id),
      store.listPosts(s.account.id, { kinds: ['post', 'reply', 'dm'], limit: options.limit }),
    ]);
    return {
      accountId: s.accountId,
      provider: s.account.platform,
      handle: s.handle,
      platformUserId: s.account.platformUserId,
      disconnected: s.disconnected,
      total: totals.get(s.account.id) ?? 0,
      faults,
      posts: posts.map((p) => ({ id: p.id, kind: p.kind, text: p.text, inReplyToId: p.inReplyToId, recipientId: p.recipientId, idempotencyKey: p.idempotencyKey, createdAt: p.createdAt.toISOString() })),
    };
  }));
}

/** Applies one fault setting to the chosen account, or to every connected account in scope. Null if the account is not in scope. */
export async function applyFaults(store: SandboxStore, scope: ScopedAccount[], input: FaultsInput): Promise<{ accountId: string; faults: FaultSettings }[] | null> {
  const targets = input.accountId ? scope.filter((s) => s.accountId === input.accountId) : scope.filter((s) => !s.disconnected);
  if (input.accountId && targets.length === 0) return null;
  const { accountId: _ignored, ...faults } = input;
  void _ignored;
  await store.setFaults(targets.map((t) => t.account.id), faults);
  return targets.map((t) => ({ accountId: t.accountId, faults }));
}

const timelineQuery = z.object({
  accountId: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

export async function handleTimeline(request: Request, deps: SandboxDeps): Promise<Response> {
  if (request.method !== 'GET') return methodNotAllowed('GET');
  const scope = await deps.resolveScope(request);
  if (scope instanceof Response) return scope;
  const parsed = timelineQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return invalid(parsed.error);
  return json(200, { accounts: await getTimeline(deps.store, scope, parsed.data) });
}

export async function handleFaults(request: Request, deps: SandboxDeps): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'PUT') return methodNotAllowed('GET, PUT');
  const scope = await deps.resolveScope(request);
  if (scope instanceof Response) return scope;
  if (request.method === 'GET') {
    const accounts = await Promise.all(scope.map(async (s) => ({ accountId: s.accountId, handle: s.handle, provider: s.account.platform, faults: await deps.store.getFaults(s.account.id) })));
    return json(200, { accounts });
  }
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return problem({ status: 400, title: 'Bad Request', detail: 'The body must be a JSON object of fault settings.' });
  }
  const parsed = faultsInput.safeParse(body);
  if (!parsed.success) return invalid(parsed.error);
  const applied = await applyFaults(deps.store, scope, parsed.data);
  if (!applied) return problem({ status: 404, title: 'Not Found', detail: 'No sandbox account with that id in this workspace.' });
  return json(200, { accounts: applied });
}

function invalid(error: z.ZodError): Response {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) (errors[issue.path.join('.') || '_'] ??= []).push(issue.message);
  return problem({ status: 422, title: 'Unprocessable Content', detail: 'Some fields are invalid; nothing was changed.', errors });
}

function methodNotAllowed(allow: string): Response {
  return problem({ status: 405, title: 'Method Not Allowed', detail: `Use ${allow}.` }, { allow });
}
