import { randomUUID } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setApprovalRequired } from '@/db/queries/approvals';
import { schedulingStatus } from '@/db/queries/deliveries';
import { putPostingSchedule } from '@/db/queries/slots';
import { deliveries, deliveryEvents } from '@/db/schema';
import { makeAccount, makeUser, makeWorkspace } from '@/testing/db/factories';
import { settled, untilBlocked } from '@/testing/race';
import { createTestDatabase } from '@/testing/db/test-database';
import { importCsv, importCsvChunk } from '@/lib/imports/import-csv';
import type { ImportResult } from '@/lib/imports/types';
import { createPost } from '@/lib/posts/create';
import { editPost } from '@/lib/posts/edit';
import { createPostRequestSchema } from '@/lib/posts/schemas';
import { createRequestLink } from '@/lib/requests/links';
import { submitPostRequest } from '@/lib/requests/submit';

// Found in the second security review (docs/security.md#changed-in-the-second-security-review): every path that creates
// or reschedules deliveries takes "Posts need approval" from one rule.
const { db } = await createTestDatabase({ max: 10 });

async function approvalWorkspace() {
  const workspace = await makeWorkspace(db);
  await setApprovalRequired(db, {
    workspaceId: workspace.id,
    approvalRequired: true,
    actorUserId: null,
    apiKeyId: null,
  });
  const handle = `@a${randomUUID().slice(0, 6)}`;
  const account = await makeAccount(db, workspace.id, { provider: 'x', handle });
  return { workspaceId: workspace.id, account, handle };
}

const statusesOf = async (postIds: string[]) =>
  (
    await db
      .select({ status: deliveries.status })
      .from(deliveries)
      .where(inArray(deliveries.postId, postIds))
      .orderBy(asc(deliveries.postId), asc(deliveries.part))
  ).map((d) => d.status);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 17) + '00.000Z';
const csvFile = (csv: string) => ({ bytes: new TextEncoder().encode(csv), fileName: 'posts.csv' });

async function created(workspaceId: string, body: Record<string, unknown>, source: 'form' | 'api') {
  const result = await createPost(db, createPostRequestSchema.parse(body), {
    workspaceId,
    source,
    idempotencyKey: randomUUID(),
    actor: 'test',
  });
  if (result.kind !== 'ok') throw new Error(JSON.stringify(result));
  return result.postId;
}

async function draft(workspaceId: string, accountId: string) {
  return created(workspaceId, { text: `draft ${randomUUID()}`, accountIds: [accountId], status: 'draft' }, 'form');
}

describe('21.1 imports skip approval: every path that schedules deliveries takes the workspace approval rule', () => {
  it('21.1 compose (form) and API create wait for approval', async () => {
    const { workspaceId, account } = await approvalWorkspace();
    const form = await created(workspaceId, { text: `c ${randomUUID()}`, accountIds: [account.id] }, 'form');
    const api = await created(workspaceId, { text: `a ${randomUUID()}`, accountIds: [account.id] }, 'api');
    expect(await statusesOf([form, api])).toEqual(['awaiting_approval', 'awaiting_approval']);
  });

  it('21.1 a CSV import through POST /api/v1/imports waits for approval (posts and thread parts)', async () => {
    const { workspaceId, handle } = await approvalWorkspace();
    const tag = randomUUID().slice(0, 8);
    const csv = [
      'text,accounts,scheduled_at,thread_group,part',
      `${tag} single,${handle},${inDays(3)},,`,
      `${tag} first,${handle},${inDays(4)},t1,1`,
      `${tag} second,,,t1,2`,
    ].join('\n');
    const result = await importCsv(db, csvFile(csv), {
      workspaceId,
      source: 'api',
      actor: 'test',
      idempotencyKey: randomUUID(),
    });
    if (!('kind' in result) || result.kind !== 'ok') throw new Error(JSON.stringify(result));
    const body = JSON.parse(result.stored.body) as ImportResult;
    const postIds = [...new Set(body.rows.map((r) => r.postId!))];
    expect(postIds).toHaveLength(2);
    expect(await statusesOf(postIds)).toEqual(['awaiting_approval', 'awaiting_approval', 'awaiting_approval']);
    const events = await db
      .select({ to: deliveryEvents.toStatus })
      .from(deliveryEvents)
      .innerJoin(deliveries, eq(deliveries.id, deliveryEvents.deliveryId))
      .where(inArray(deliveries.postId, postIds));
    expect(events.map((e) => e.to)).toEqual(['awaiting_approval', 'awaiting_approval', 'awaiting_approval']);
  });

  it('21.1 the import page (chunks) waits for approval', async () => {
    const { workspaceId, handle } = await approvalWorkspace();
    const csv = `text,accounts,scheduled_at\npage ${randomUUID()},${handle},${inDays(2)}\n`;
    const result = await importCsvChunk(db, csvFile(csv), {
      workspaceId,
      source: 'form',
      actor: 'user:test',
      importId: randomUUID(),
      chunk: 0,
    });
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(await statusesOf([result.rows[0]!.postId!])).toEqual(['awaiting_approval']);
  });

  it('21.1 slot "next" waits for approval', async () => {
    const { workspaceId, account } = await approvalWorkspace();
    await putPostingSchedule(db, {
      workspaceId,
      accountId: account.id,
      timeZone: 'UTC',
      slots: [{ weekday: 'mon', time: '09:00' }],
    });
    const postId = await created(
      workspaceId,
      { text: `q ${randomUUID()}`, accountIds: [account.id], slot: 'next' },
      'api',
    );
    expect(await statusesOf([postId])).toEqual(['awaiting_approval']);
  });

  it('21.1 draft → schedule, and a request form → schedule, wait for approval', async () => {
    const { workspaceId, account } = await approvalWorkspace();
    const draftId = await draft(workspaceId, account.id);
    const admin = await makeUser(db);
    const link = await createRequestLink(db, { workspaceId, userId: admin.id, label: 'Client' });
    const request = await submitPostRequest(
      db,
      link.token,
      { key: randomUUID(), name: 'Carla', text: `req ${randomUUID()}`, timeZone: 'UTC' },
      { address: `198.51.100.7-${randomUUID()}` },
    );
    if (request.kind !== 'received') throw new Error(JSON.stringify(request));
    for (const postId of [draftId, request.postId]) {
      const result = await editPost(db, {
        workspaceId,
        postId,
        changes: { status: 'scheduled', scheduledAt: inDays(2) },
        actor: 'test',
        idempotencyKey: randomUUID(),
      });
      expect(result.kind).toBe('ok');
    }
    expect(await statusesOf([draftId])).toEqual(['awaiting_approval']);
    expect(new Set(await statusesOf([request.postId]))).toEqual(new Set(['awaiting_approval']));
  });

  it('21.1 a calendar move of a post scheduled before approval was turned on waits for approval', async () => {
    const workspace = await makeWorkspace(db);
    const account = await makeAccount(db, workspace.id, 'x');
    const postId = await created(workspace.id, { text: `m ${randomUUID()}`, accountIds: [account.id] }, 'form');
    expect(await statusesOf([postId])).toEqual(['scheduled']);
    await setApprovalRequired(db, {
      workspaceId: workspace.id,
      approvalRequired: true,
      actorUserId: null,
      apiKeyId: null,
    });
    const moved = await editPost(db, {
      workspaceId: workspace.id,
      postId,
      changes: { scheduledAt: inDays(5) },
      actor: 'test',
      idempotencyKey: randomUUID(),
    });
    expect(moved.kind).toBe('ok');
    expect(await statusesOf([postId])).toEqual(['awaiting_approval']);
  });

  it('21.1 the rule holds the workspace row: turning approval on waits for a transaction that has read it', async () => {
    const workspace = await makeWorkspace(db);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let read!: (status: string) => void;
    const ruleRead = new Promise<string>((resolve) => (read = resolve));
    const writer = db.transaction(async (tx) => {
      read(await schedulingStatus(tx, { workspaceId: workspace.id }));
      await gate; // an import or a create writing its deliveries as `scheduled`
    });
    expect(await ruleRead).toBe('scheduled');
    const toggle = setApprovalRequired(db, {
      workspaceId: workspace.id,
      approvalRequired: true,
      actorUserId: null,
      apiKeyId: null,
    });
    const state = settled(toggle);
    await untilBlocked(db, '%with changed as'); // setApprovalRequired's statement
    expect(state.done).toBe(false);
    release();
    await writer;
    await toggle;
    expect(await schedulingStatus(db, { workspaceId: workspace.id })).toBe('awaiting_approval');
  });
});
