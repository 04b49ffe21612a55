import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertPostWithDeliveries } from '@/db/queries/posts';
import { deliveries, reconciliations } from '@/db/schema';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { testPublisherOptions } from '@/testing/publisher';
import { startTestSandbox } from '@/testing/sandbox';
import type { Profile } from '@/sandbox/store/types';
import { reconcileAmbiguousDeliveries } from './reconcile';
import { testReconcileOptions } from '@/testing/reconciler';

// A read-back fooled by rendering (docs/architecture.md#proof-of-absence), end to end: a server that renders (Markdown
// to HTML, t.co links, a cut text) fooled the read-back into "not found" and the release published a second copy, shown
// Sent. Every answer is lost here and the key is ignored, so only the read stands between a release and a second copy.

const sandbox = await startTestSandbox({ hangMs: 2_000 });
const { db } = sandbox;
const publish = () => publishDueDeliveries(db, testPublisherOptions(sandbox.url, { callTimeoutMs: 300 }));
const reconcile = () => reconcileAmbiguousDeliveries(db, testReconcileOptions(sandbox.url));

const MARKDOWN = [
  '**Launch** _today_',
  '*Big* news __for__ everyone',
  '> Stay curious\nsaid the sign',
  'Today:\n- coffee\n- code\n- ship',
  '1. plan\n2. build\n3. ship',
  '# Release notes\nAll fixed',
  '## Week 12\nThe roundup',
  'Run `npm test` first',
  '```\nconst once = true;\n```',
  'Price ~~20~~ 15 today',
  'Read [the notes](https://example.com/notes) now',
  'Thanks @alice@example.social for the help',
  'Big day #launch #once',
  'Party time :blobcat: :tada:',
  'See https://example.com/a/very/long/path/to/a/page',
  'Fish & chips < 5 "quid"',
  '***Everything*** at once',
  '> **Quoted** and _emphasised_',
  '- [x] done\n- [ ] next',
  'Escaped \\*stars\\* stay',
];

async function schedule(accountId: string, workspaceId: string, texts: string[]) {
  const ids: string[] = [];
  for (const text of texts) {
    const created = await insertPostWithDeliveries(db, {
      post: { workspaceId, text, scheduledAt: new Date(), source: 'api', idempotencyKey: randomUUID() },
      accountIds: [accountId],
      actor: 'test',
    });
    ids.push(created!.deliveries[0]!.id);
  }
  return ids;
}

/** Publishes with every answer lost, then reconciles (and publishes what was released) until nothing moves. */
async function runWithEveryAnswerLost(platform: 'mastodon' | 'x', profile: Profile, texts: string[]) {
  const account = await sandbox.connectAccount(platform);
  await sandbox.setFaults(account.sandboxAccount.id, { profile, timeoutAfterCommit: 1 });
  const ids = await schedule(account.productAccountId, account.workspaceId, texts);
  await publish();
  const rows = await db.select().from(deliveries).where(inArray(deliveries.id, ids));
  expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'ambiguous'));
  await sandbox.setFaults(account.sandboxAccount.id, { profile });
  for (let round = 0; round < 6; round++) {
    await reconcile();
    await publish();
  }
  return { account, ids };
}

async function expectOnceEach(sandboxAccountId: string, ids: string[], texts: string[]) {
  const rows = new Map((await db.select().from(deliveries).where(inArray(deliveries.id, ids))).map((r) => [r.id, r]));
  const outcomes: string[] = [];
  for (const [i, id] of ids.entries()) {
    const row = rows.get(id)!;
    const copies = await sandbox.copiesOfText(sandboxAccountId, texts[i]!);
    // I1: never two copies; a settled delivery is sent with its one copy, or in review with what was seen.
    expect(copies, `copies of ${JSON.stringify(texts[i])}`).toBe(1);
    expect(['sent', 'needs_review'], `status of ${JSON.stringify(texts[i])}`).toContain(row.status);
    if (row.status === 'needs_review') {
      const [last] = await db
        .select()
        .from(reconciliations)
        .where(eq(reconciliations.deliveryId, id))
        .orderBy(reconciliations.checkedAt)
        .limit(1);
      expect(last!.decision).toBe('needs_review');
    }
    outcomes.push(row.status);
  }
  return outcomes;
}

describe('a read that rendering cannot fool (Hollo, Akkoma, X)', () => {
  it('I1 mastodon-markdown, key ignored, every answer lost: 20 Markdown posts, one copy each, each sent via its stored source', async () => {
    const texts = MARKDOWN.map((t) => `${t} ${randomUUID().slice(0, 6)}`);
    const { account, ids } = await runWithEveryAnswerLost('mastodon', 'mastodon-markdown', texts);
    const outcomes = await expectOnceEach(account.sandboxAccount.id, ids, texts);
    // The server's /statuses/:id/source answers the text we sent: each is the same, so each is sent.
    expect(outcomes.filter((s) => s === 'sent').length).toBe(texts.length);
    const checks = await db.select().from(reconciliations).where(inArray(reconciliations.deliveryId, ids));
    expect(checks.filter((c) => c.decision === 'released')).toEqual([]);
  });

  it('I1 X with t.co links (with a scheme, bare domains, several), every answer lost: one copy each, never released', async () => {
    const tail = randomUUID().slice(0, 6);
    const texts = [
      `Read https://example.com/launch/notes?ref=semel now ${tail}`,
      `Two links https://example.com/a and https://example.org/b ${tail}`,
      `Notes at example.com/launch today ${tail}`,
      `Docs: docs.example.org and https://example.net/x?y=1#z ${tail}`,
    ];
    const { account, ids } = await runWithEveryAnswerLost('x', 'x-nodedupe', texts);
    await expectOnceEach(account.sandboxAccount.id, ids, texts);
    const checks = await db.select().from(reconciliations).where(inArray(reconciliations.deliveryId, ids));
    expect(checks.filter((c) => c.decision === 'released')).toEqual([]);
  });
});
