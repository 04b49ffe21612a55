import { z } from 'zod';
import { problem } from '@/lib/http/problem';
import { json } from '@/sandbox/behaviour/faults';
import { INBOUND_KINDS, sendInbound } from '@/sandbox/behaviour/inbound';
import { PEOPLE } from '@/sandbox/behaviour/people';
import type { SandboxDeps } from '@/sandbox/store/types';

// POST /api/sandbox/inbound: one of the sandbox's people says something to an account now (docs/sandbox.md#inbound):
// a reply under its post (its newest, or `replyTo`), a mention or a DM, as its network has them. For demos and tests,
// beside the steady stream an account's `inboundPerDay` sets. Scoped like the fault knobs (an admin or accounts:write).

const input = z
  .object({
    accountId: z.string().trim().min(1),
    kind: z.enum(['reply', 'mention', 'dm']),
    text: z.string().trim().min(1, 'Text is required').max(500),
    person: z.enum(PEOPLE.map((p) => p.key) as [string, ...string[]]).optional(),
    replyTo: z
      .string()
      .regex(/^\d{1,19}$/, 'A post id of the account')
      .optional(),
  })
  .strict();

export async function handleInbound(request: Request, deps: SandboxDeps): Promise<Response> {
  if (request.method !== 'POST')
    return problem({ status: 405, title: 'Method Not Allowed', detail: 'Use POST.' }, { allow: 'POST' });
  const scope = await deps.resolveScope(request, 'change');
  if (scope instanceof Response) return scope;
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return problem({ status: 400, title: 'Bad Request', detail: 'The body must be a JSON object.' });
  }
  const parsed = input.safeParse(body);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[issue.path.join('.') || '_'] ??= []).push(issue.message);
    return problem({ status: 422, title: 'Unprocessable Content', detail: 'Nothing was sent.', errors });
  }
  const target = scope.find((s) => s.accountId === parsed.data.accountId && !s.disconnected);
  if (!target)
    return problem({ status: 404, title: 'Not Found', detail: 'No connected sandbox account with that id here.' });
  const account = target.account;
  const unsupported = (message: string) =>
    problem({ status: 422, title: 'Unprocessable Content', detail: message, errors: { kind: [message] } });
  if (!INBOUND_KINDS[account.platform].includes(parsed.data.kind))
    return unsupported(`Nobody can send a ${parsed.data.kind} that ${account.platform}'s API lets the account read.`);
  const replyTo = parsed.data.replyTo ? await deps.store.getPost(parsed.data.replyTo) : null;
  if (parsed.data.replyTo && (!replyTo || replyTo.accountId !== account.id || replyTo.deletedAt))
    return problem({
      status: 422,
      title: 'Unprocessable Content',
      detail: 'Nothing was sent.',
      errors: { replyTo: ['Not a live post of the account'] },
    });
  const newest =
    parsed.data.kind === 'reply' && !replyTo
      ? (await deps.store.listPosts(account.id, { kinds: ['post'], limit: 1 }))[0]
      : undefined;
  if (parsed.data.kind === 'reply' && !replyTo && !newest)
    return unsupported('The account has no post to reply to yet.');
  const person = PEOPLE.find((p) => p.key === parsed.data.person) ?? PEOPLE[0]!;
  const post = await sendInbound(deps.store, account, {
    kind: parsed.data.kind,
    text: parsed.data.text,
    person,
    replyTo: replyTo ?? newest ?? null,
  });
  return json(201, {
    id: post.id,
    kind: parsed.data.kind,
    text: post.text,
    inReplyToId: post.inReplyToId,
    author: { name: person.name, username: person.username },
    createdAt: post.createdAt.toISOString(),
  });
}
