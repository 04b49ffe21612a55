import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertMedia } from '@/db/queries/media';
import { postMedia, postParts, posts } from '@/db/schema';
import { makeAccount, makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { composeFormSchema, submitComposeForm } from './compose-form';

const { db } = await createTestDatabase({ max: 30 });
let context: { workspaceId: string; userId: string };
let accountId: string;

beforeAll(async () => {
  const workspace = await makeWorkspace(db);
  context = { workspaceId: workspace.id, userId: (await makeUser(db)).id };
  accountId = (await makeAccount(db, workspace.id)).id;
});

const form = (fields: Record<string, unknown>) =>
  composeFormSchema.parse({
    idempotencyKey: randomUUID(),
    text: `Hello ${randomUUID()}`,
    accountIds: accountId,
    when: 'now',
    ...fields,
  });
const postsWithKey = async (key: string) =>
  (await db.select({ n: count() }).from(posts).where(eq(posts.idempotencyKey, key)))[0]!.n;

describe('compose form submit — I3', () => {
  it('I3 — 20 parallel submissions of one form (one key) create one post; all but one are replays', async () => {
    const submission = form({});
    const results = await Promise.all(Array.from({ length: 20 }, () => submitComposeForm(db, submission, context)));
    expect(results.every((r) => r.ok)).toBe(true);
    const ids = new Set(results.map((r) => (r.ok ? r.postId : null)));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.ok && !r.replayed)).toHaveLength(1);
    expect(await postsWithKey(submission.idempotencyKey)).toBe(1);
  });

  it('two separate intents (two keys, same text) are two posts after confirming the soft duplicate warning', async () => {
    const text = `Same words ${randomUUID()}`;
    const first = await submitComposeForm(db, form({ text }), context);
    expect(first.ok).toBe(true);
    const second = form({ text: `  ${text.replace(' ', '   ')} ` }); // same after normalisation
    const warned = await submitComposeForm(db, second, context);
    expect(warned).toMatchObject({ ok: false, kind: 'possible_duplicate' });
    expect(await postsWithKey(second.idempotencyKey)).toBe(0);
    const confirmed = await submitComposeForm(db, { ...second, confirmDuplicate: '1' }, context);
    expect(confirmed.ok).toBe(true);
    expect(await postsWithKey(second.idempotencyKey)).toBe(1);
  });

  it("a scheduled time is read in the user's zone and stored in UTC; a skipped DST time is a field error", async () => {
    const year = new Date().getUTCFullYear() + 1; // always in the future, always inside the scheduling horizon
    const lastMarchSunday = 31 - new Date(Date.UTC(year, 2, 31)).getUTCDay(); // Europe's spring-forward day
    const ok = await submitComposeForm(
      db,
      form({ when: 'later', localDateTime: `${year}-07-01T09:30`, timeZone: 'Europe/Berlin' }),
      context,
    );
    expect(ok.ok).toBe(true);
    const [row] = await db
      .select()
      .from(posts)
      .where(eq(posts.id, ok.ok ? ok.postId : ''));
    expect(row!.scheduledAt.toISOString()).toBe(`${year}-07-01T07:30:00.000Z`);
    const gap = await submitComposeForm(
      db,
      form({ when: 'later', localDateTime: `${year}-03-${lastMarchSunday}T02:30`, timeZone: 'Europe/Berlin' }),
      context,
    );
    expect(gap).toMatchObject({ ok: false, kind: 'invalid' });
    expect(gap.ok === false && gap.kind === 'invalid' && gap.errors.localDateTime).toBeTruthy();
  });

  it('invalid input returns field errors and writes nothing; the same key then succeeds', async () => {
    const bad = form({ text: '', accountIds: undefined });
    const result = await submitComposeForm(db, bad, context);
    expect(result).toMatchObject({ ok: false, kind: 'invalid' });
    expect(result.ok === false && result.kind === 'invalid' && Object.keys(result.errors).sort()).toEqual([
      'accountIds',
      'text',
    ]);
    expect(await postsWithKey(bad.idempotencyKey)).toBe(0);
    expect((await submitComposeForm(db, { ...bad, text: 'Now valid', accountIds: [accountId] }, context)).ok).toBe(
      true,
    );
  });

  it('the same key with different content is refused as a mismatch', async () => {
    const submission = form({});
    expect((await submitComposeForm(db, submission, context)).ok).toBe(true);
    expect(await submitComposeForm(db, { ...submission, text: 'edited after the fact' }, context)).toEqual({
      ok: false,
      kind: 'mismatch',
    });
    expect(await postsWithKey(submission.idempotencyKey)).toBe(1);
  });
});

describe('compose form submit — a thread', () => {
  it('I3 — the parts, in their order, make one thread per key; a repeat is a replay', async () => {
    const tag = randomUUID().slice(0, 8);
    const submission = form({ kind: 'thread', text: '', parts: [`${tag} one`, `${tag} two`, `${tag} three`] });
    const [first, again] = [
      await submitComposeForm(db, submission, context),
      await submitComposeForm(db, submission, context),
    ];
    expect(first).toMatchObject({ ok: true, replayed: false });
    expect(again).toMatchObject({ ok: true, replayed: true });
    const [row] = await db
      .select()
      .from(postParts)
      .where(and(eq(postParts.position, 2), eq(postParts.text, `${tag} three`)));
    expect(row?.postId).toBe(first.ok ? first.postId : null);
    expect(await postsWithKey(submission.idempotencyKey)).toBe(1);
  });

  it('an empty part is a field error on that part; a single part is an error on the parts; nothing is stored', async () => {
    const empty = form({ kind: 'thread', parts: ['one', ' ', 'three'] });
    expect(await submitComposeForm(db, empty, context)).toMatchObject({
      ok: false,
      kind: 'invalid',
      errors: { 'parts.1.text': ['Text is required'] },
    });
    const single = form({ kind: 'thread', parts: 'only one' });
    const result = await submitComposeForm(db, single, context);
    expect(result).toMatchObject({
      ok: false,
      kind: 'invalid',
      errors: { parts: [expect.stringMatching(/at least 2/)] },
    });
    expect(await postsWithKey(empty.idempotencyKey)).toBe(0);
    expect(await postsWithKey(single.idempotencyKey)).toBe(0);
  });

  it("each part's images (the composer's partMediaIds) are stored with that part; a foreign one names the part", async () => {
    const image = await insertMedia(db, {
      workspaceId: context.workspaceId,
      sha256: 'a'.repeat(64),
      type: 'image/png',
      width: 10,
      height: 10,
      size: 100,
      altText: 'a dot',
      createdBy: 'test',
    });
    const tag = randomUUID().slice(0, 8);
    const submission = form({
      kind: 'thread',
      parts: [`${tag} one`, `${tag} two`],
      partMediaIds: JSON.stringify([[], [image.id]]),
    });
    const result = await submitComposeForm(db, submission, context);
    expect(result).toMatchObject({ ok: true });
    const stored = await db
      .select({ part: postMedia.part, mediaId: postMedia.mediaId })
      .from(postMedia)
      .where(eq(postMedia.postId, (result as { postId: string }).postId));
    expect(stored).toEqual([{ part: 1, mediaId: image.id }]);

    const foreign = form({ kind: 'thread', parts: ['one', 'two'], partMediaIds: JSON.stringify([[randomUUID()], []]) });
    expect(await submitComposeForm(db, foreign, context)).toMatchObject({
      ok: false,
      kind: 'invalid',
      errors: { 'parts.0.mediaIds': [expect.stringMatching(/do not exist in this workspace/)] },
    });
    expect(await postsWithKey(foreign.idempotencyKey)).toBe(0);
    expect(composeFormSchema.safeParse({ idempotencyKey: randomUUID(), partMediaIds: '[1' }).success).toBe(false);
  });
});
