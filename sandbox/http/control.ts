import { z } from 'zod';
import { problem } from '@/lib/http/problem';
import { faultsInput, json, type FaultsInput } from '@/sandbox/behaviour/faults';
import { profileFits } from '@/sandbox/behaviour/profiles';
import type {
  FaultSettings,
  FaultsUpdate,
  Platform,
  SandboxDeps,
  SandboxPostMedia,
  SandboxStore,
  ScopedAccount,
} from '@/sandbox/store/types';

// The control side of the sandbox (fault knobs and the timeline of every copy), scoped to what one caller may see.

export type TimelinePost = {
  id: string;
  kind: string;
  text: string;
  inReplyToId: string | null;
  recipientId: string | null;
  idempotencyKey: string | null;
  createdAt: string;
  /** Deleted copies stay on the platform's records, marked; its APIs no longer show them. */
  deletedAt: string | null;
  /** The images this copy shows, as the platform received them. */
  media: SandboxPostMedia[];
};
export type TimelineAccount = {
  accountId: string;
  provider: Platform;
  handle: string;
  platformUserId: string;
  disconnected: boolean;
  /** Live (not deleted) copies on this account (the posts list may be cut at `limit`). */
  total: number;
  faults: FaultSettings;
  posts: TimelinePost[];
};

export async function getTimeline(
  store: SandboxStore,
  scope: ScopedAccount[],
  options: { accountId?: string; limit: number },
): Promise<TimelineAccount[]> {
  const chosen = options.accountId ? scope.filter((s) => s.accountId === options.accountId) : scope;
  const totals = await store.countPosts(chosen.map((s) => s.account.id));
  return Promise.all(
    chosen.map(async (s) => {
      const [faults, posts] = await Promise.all([
        store.getFaults(s.account.id),
        store.listPosts(s.account.id, { kinds: ['post', 'reply', 'dm'], includeDeleted: true, limit: options.limit }),
      ]);
      return {
        accountId: s.accountId,
        provider: s.account.platform,
        handle: s.handle,
        platformUserId: s.account.platformUserId,
        disconnected: s.disconnected,
        total: totals.get(s.account.id) ?? 0,
        faults,
        posts: posts.map((p) => ({
          // A live Bluesky record is known by its record key (its URI and "View post" link use it).
          id: p.recordKey && !p.deletedAt ? p.recordKey : p.id,
          kind: p.kind,
          text: p.text,
          inReplyToId: p.inReplyToId,
          recipientId: p.recipientId,
          idempotencyKey: p.idempotencyKey,
          createdAt: p.createdAt.toISOString(),
          deletedAt: p.deletedAt?.toISOString() ?? null,
          media: p.media,
        })),
      };
    }),
  );
}

export type ApplyFaultsResult =
  | { ok: true; accounts: { accountId: string; faults: FaultSettings }[] }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'profile_mismatch'; message: string };

/**
 * Applies one fault setting (a full replacement) to the chosen account, or to every connected account in
 * scope. A profile must fit each target's platform (`mastodon-*` on Mastodon, `x*` on X, `plain` on both);
 * without one, each account gets its platform's default. Nothing changes when any target does not fit.
 */
export async function applyFaults(
  store: SandboxStore,
  scope: ScopedAccount[],
  input: FaultsInput,
): Promise<ApplyFaultsResult> {
  const targets = input.accountId
    ? scope.filter((s) => s.accountId === input.accountId)
    : scope.filter((s) => !s.disconnected);
  if (input.accountId && targets.length === 0) return { ok: false, reason: 'not_found' };
  const { accountId: _ignored, ...faults } = input;
  void _ignored;
  const misfit = faults.profile ? targets.find((t) => !profileFits(faults.profile!, t.account.platform)) : undefined;
  if (misfit)
    return {
      ok: false,
      reason: 'profile_mismatch',
      message: `Profile ${faults.profile} does not fit ${misfit.handle} (${misfit.account.platform}).`,
    };
  await store.setFaults(
    targets.map((t) => t.account.id),
    faults satisfies FaultsUpdate,
  );
  const accounts = await Promise.all(
    targets.map(async (t) => ({ accountId: t.accountId, faults: await store.getFaults(t.account.id) })),
  );
  return { ok: true, accounts };
}

const timelineQuery = z.object({
  accountId: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

export async function handleTimeline(request: Request, deps: SandboxDeps): Promise<Response> {
  if (request.method !== 'GET') return methodNotAllowed('GET');
  const scope = await deps.resolveScope(request, 'read');
  if (scope instanceof Response) return scope;
  const parsed = timelineQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return invalid(parsed.error);
  return json(200, { accounts: await getTimeline(deps.store, scope, parsed.data) });
}

export async function handleFaults(request: Request, deps: SandboxDeps): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'PUT') return methodNotAllowed('GET, PUT');
  const scope = await deps.resolveScope(request, request.method === 'GET' ? 'read' : 'change');
  if (scope instanceof Response) return scope;
  if (request.method === 'GET') {
    const accounts = await Promise.all(
      scope.map(async (s) => ({
        accountId: s.accountId,
        handle: s.handle,
        provider: s.account.platform,
        faults: await deps.store.getFaults(s.account.id),
      })),
    );
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
  if (!applied.ok && applied.reason === 'not_found')
    return problem({ status: 404, title: 'Not Found', detail: 'No sandbox account with that id in this workspace.' });
  if (!applied.ok) {
    return problem({
      status: 422,
      title: 'Unprocessable Content',
      detail: 'Some fields are invalid; nothing was changed.',
      errors: { profile: [applied.message] },
    });
  }
  return json(200, { accounts: applied.accounts });
}

function invalid(error: z.ZodError): Response {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) (errors[issue.path.join('.') || '_'] ??= []).push(issue.message);
  return problem({
    status: 422,
    title: 'Unprocessable Content',
    detail: 'Some fields are invalid; nothing was changed.',
    errors,
  });
}

function methodNotAllowed(allow: string): Response {
  return problem({ status: 405, title: 'Method Not Allowed', detail: `Use ${allow}.` }, { allow });
}
