import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { memberships, workspaces } from '@/db/schema';
import { readInbox } from '@/lib/inbox/read-inbox';
import { createOutboundLookup, parseAllowList } from '@/lib/net/outbound-guard';
import { createAgents } from '@/lib/net/send';
import { sendInbound } from '@/sandbox/behaviour/inbound';
import { makeUser } from '@/testing/db/factories';
import { testInboxOptions } from '@/testing/inbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { startTestSandbox } from '@/testing/sandbox';
import { startSmtpCapture } from '@/testing/smtp';
import { startWebhookReceiver } from '@/testing/webhook-receiver';
import { escapeSlackText, slackPayload } from './compose';
import { deliverDueNotifications } from './send';
import { saveSlackWebhook } from './slack-settings';

// What strangers write on the platforms (a comment) and what members write (a workspace's name) reaches Slack and
// email as text, never as markup: Slack's & < > escaped (no link, no mention, no <!channel>), email plain text only.

const HOSTILE = '<!channel> <https://evil.example|click> <b>x</b> & "q"';
const HOSTILE_IN_SLACK = '&lt;!channel&gt; &lt;https://evil.example|click&gt; &lt;b&gt;x&lt;/b&gt; &amp; "q"';

const sandbox = await startTestSandbox();
const { db, store } = sandbox;
const allow = parseAllowList('localhost');
const agents = createAgents({ lookup: createOutboundLookup(() => allow) });
const slack = await startWebhookReceiver();
const smtp = await startSmtpCapture();
afterAll(async () => {
  await slack.close();
  await smtp.close();
});

/** The text/plain body of a raw message, quoted-printable decoded; and whether it has any other part. */
function plainTextOf(raw: string) {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  const qp = /content-transfer-encoding:\s*quoted-printable/i.test(head!);
  const text = qp
    ? Buffer.from(
        body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
        'latin1',
      ).toString('utf8')
    : body;
  return { head: head!, text };
}

describe('escaping in notifications', () => {
  it('escapeSlackText: & < > as entities, & first (no double escape), the rest untouched', () => {
    expect(escapeSlackText(HOSTILE)).toBe(HOSTILE_IN_SLACK);
    expect(escapeSlackText('&lt;')).toBe('&amp;lt;');
    expect(escapeSlackText('*bold* _it_ `code` “q”')).toBe('*bold* _it_ `code` “q”');
  });

  it('a hostile comment read by the inbox job reaches Slack inert and email as plain text only', async () => {
    const a = await sandbox.connectAccount('x');
    const member = await makeUser(db);
    await db.insert(memberships).values({ workspaceId: a.workspaceId, userId: member.id, role: 'admin' });
    // A member-written name that would be markup too.
    const name = `Acme <@U123> & <!here> ${randomUUID().slice(0, 6)}`;
    await db.update(workspaces).set({ name }).where(eq(workspaces.id, a.workspaceId));
    const saved = await saveSlackWebhook(
      db,
      { workspaceId: a.workspaceId, url: slack.url, userId: member.id, encryptionKey: TEST_ENCRYPTION_KEY },
      { allow },
    );
    expect(saved.kind).toBe('saved');

    await sendInbound(store, a.sandboxAccount, { kind: 'mention', text: HOSTILE });
    await readInbox(db, testInboxOptions(sandbox.url, { accountIds: [a.productAccountId] }));
    const pass = await deliverDueNotifications(db, { encryptionKey: TEST_ENCRYPTION_KEY, agents, smtpUrl: smtp.url });
    expect(pass.sent).toBeGreaterThanOrEqual(2);

    const posted = slack.received
      .map((r) => (JSON.parse(r.body) as { text: string }).text)
      .filter((t) => t.includes(escapeSlackText(name)));
    expect(posted).toHaveLength(1);
    const text = posted[0]!;
    // Not one control character left: nothing Slack could read as a link, a mention or a special command.
    expect(text).not.toMatch(/[<>]/);
    expect(text).toContain(HOSTILE_IN_SLACK);
    expect(text).toContain('Acme &lt;@U123&gt; &amp; &lt;!here&gt;');

    const mail = smtp.received.filter((m) => m.to.includes(member.email));
    expect(mail).toHaveLength(1);
    const { head, text: body } = plainTextOf(mail[0]!.data);
    expect(head).toMatch(/content-type:\s*text\/plain/i);
    expect(mail[0]!.data).not.toMatch(/text\/html/i);
    // Plain text shows what was written, as written: no part reads it as markup.
    expect(body).toContain(HOSTILE);
  });

  it('the Slack test message and every kind escape the workspace’s name and the message', () => {
    const send = { kind: null, workspaceName: '<!everyone>', message: null } as Parameters<typeof slackPayload>[0];
    expect(slackPayload(send).text).toBe('A test message from Semel for &lt;!everyone&gt;: Slack notifications work.');
    const review = { ...send, kind: 'needs_review', message: `Post “${HOSTILE}” needs review` };
    expect(slackPayload(review).text).toBe(
      `*Needs review* · &lt;!everyone&gt;\nPost “${HOSTILE_IN_SLACK}” needs review`,
    );
  });
});
