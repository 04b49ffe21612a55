import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { recordOwnMessages } from '@/db/queries/inbox/items';
import { addMembership } from '@/db/queries/workspaces';
import { inboxAnswers, posts } from '@/db/schema';
import type { WorkspaceContext } from '@/lib/auth/session';
import { makeUser } from '@/testing/db/factories';
import { lastTestDatabaseUrl } from '@/testing/db/test-database';
import { storeInboxItem } from '@/testing/inbox';
import { startTestSandbox } from '@/testing/sandbox';

// The inbox page's answer action as the browser calls it; only the cookie's session lookup is replaced. An item the
// account answered on the platform itself is refused like a second answer, naming it, until the member sends another
// anyway (the count the refusal gave).
let context: WorkspaceContext | null = null;
vi.mock('@/lib/auth/session', () => ({ getWorkspace: async () => context }));

const sandbox = await startTestSandbox();
const { db } = sandbox;
process.env.DATABASE_URL = lastTestDatabaseUrl(); // the action's getDb() reads the sandbox's database
const { answerItemAction } = await import('./actions');

let account: Awaited<ReturnType<typeof sandbox.connectAccount>>;

beforeAll(async () => {
  account = await sandbox.connectAccount('x');
  const row = await makeUser(db);
  await addMembership(db, { workspaceId: account.workspaceId, userId: row.id, role: 'manager' });
  const workspace = { id: account.workspaceId, slug: 'w', name: 'w' };
  context = {
    user: { id: row.id, email: row.email, name: row.name },
    workspace,
    role: 'manager',
    memberships: [{ ...workspace, role: 'manager' }],
  };
});

const answerForm = (itemId: string, text: string, after: number, key = randomUUID()) => {
  const form = new FormData();
  form.set('itemId', itemId);
  form.set('text', text);
  form.set('after', String(after));
  form.set('key', key);
  return form;
};

describe('answerItemAction', () => {
  it('an item answered on the platform: refused with who and how many answers; "send another anyway" sends one', async () => {
    const item = await storeInboxItem(db, { workspaceId: account.workspaceId, accountId: account.productAccountId });
    await recordOwnMessages(db, {
      accountId: account.productAccountId,
      messages: [
        {
          platformId: '1790000000000000002',
          inReplyTo: item.platformId,
          conversationId: null,
          createdAt: new Date(),
          text: 'Answered from the phone app',
        },
      ],
    });
    const refused = await answerItemAction(undefined, answerForm(item.id, 'Hello', 0));
    expect(refused).toMatchObject({
      ok: false,
      status: 409,
      data: { answeredBy: 'The account on X', answeredText: 'Answered from the phone app', answers: 1 },
    });
    expect(refused.message).toContain('The account answered it on X itself (another app)');
    expect(refused.message).toContain('“Answered from the phone app”');
    expect(refused.message).toContain('not sent');
    expect(await db.select().from(inboxAnswers).where(eq(inboxAnswers.itemId, item.id))).toHaveLength(0);
    expect(await db.select().from(posts).where(eq(posts.inReplyTo, item.platformId))).toHaveLength(0);

    const anyway = await answerItemAction(undefined, answerForm(item.id, 'Hello anyway', refused.data!.answers!));
    expect(anyway).toMatchObject({ ok: true, data: { number: 2 } });
    expect(await db.select().from(posts).where(eq(posts.inReplyTo, item.platformId))).toHaveLength(1);
  });
});
