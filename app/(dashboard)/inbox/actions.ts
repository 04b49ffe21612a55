'use server';

import { z } from 'zod';
import { getDb } from '@/db/client';
import {
  endInboxPresence,
  heartbeatInboxPresence,
  addInboxNote,
  assignInboxItem,
  markInboxItemDone,
} from '@/db/queries/inbox/work';
import { workspaceAction, type ActionState } from '@/lib/auth/action';
import { IDEMPOTENCY_KEY_PATTERN } from '@/lib/idempotency/key';
import { memberItemAccess } from '@/lib/inbox/access';
import { answerInboxItem, answeredOnPlatformText } from '@/lib/inbox/answer';
import { PROVIDER_META } from '@/lib/providers/catalog';
import type { AnswerActionData } from '@/lib/inbox/answer-state';
import { PRESENCE_TTL_MS } from '@/lib/inbox/presence';
import { answerTextSchema, noteTextSchema } from '@/lib/inbox/schemas';

// The inbox page's writes. Each reaches the item through the member's own workspaces and checks their role in the
// item's workspace (lib/inbox/access.ts), whatever workspace is active.

const clientKey = z.string().regex(IDEMPOTENCY_KEY_PATTERN, 'A key made by the form');

export const answerItemAction = workspaceAction(
  {
    name: 'answerInboxItem',
    can: 'read',
    schema: z.object({
      itemId: z.uuid(),
      text: answerTextSchema,
      after: z.coerce.number().int().min(0).max(1000).default(0),
      key: clientKey,
    }),
  },
  async ({ itemId, text, after, key }, { memberships, user }): Promise<ActionState<AnswerActionData>> => {
    const db = getDb();
    const access = await memberItemAccess(db, { itemId, memberships, capability: 'answer' });
    if (!access.ok) return { ok: false, status: access.status, message: access.message };
    const result = await answerInboxItem(
      db,
      itemId,
      { text, after },
      {
        workspaceId: access.workspaceId,
        idempotencyKey: key,
        actorName: user.name,
        actor: `user:${user.id}`,
        userId: user.id,
        source: 'form',
      },
    );
    switch (result.kind) {
      case 'ok': {
        const body = JSON.parse(result.stored.body) as { answer: { number: number } };
        return { ok: true, message: 'Sent: your answer is being published.', data: { number: body.answer.number } };
      }
      case 'already_answered':
        return {
          ok: false,
          status: 409,
          message: `${result.answer.actorName} answered first: “${result.answer.text}”. Your answer was not sent.`,
          data: { answeredBy: result.answer.actorName, answeredText: result.answer.text, answers: result.answers },
        };
      case 'answered_on_platform':
        return {
          ok: false,
          status: 409,
          message: `${answeredOnPlatformText(result)} Your answer was not sent.`,
          data: {
            answeredBy: `The account on ${PROVIDER_META[result.network].label}`,
            answeredText: result.platformAnswerText ?? undefined,
            answers: result.answers,
          },
        };
      case 'in_flight':
        return { ok: false, status: 409, message: 'Sending…', data: { retryAfterSeconds: result.retryAfterSeconds } };
      case 'invalid':
        return { ok: false, status: 422, errors: result.errors, message: 'Please fix the highlighted fields.' };
      case 'not_answerable':
        return { ok: false, status: 422, message: result.reason };
      case 'not_found':
        return { ok: false, status: 404, message: 'This item is not in your inbox.' };
      case 'key_reused':
        return { ok: false, status: 422, message: 'This answer was already sent with other words: reload the item.' };
    }
  },
);

/** "I am replying" (a heartbeat while the member writes) or "I stopped" (sent, or left the item). */
export const presenceAction = workspaceAction(
  { name: 'inboxPresence', can: 'read', schema: z.object({ itemId: z.uuid(), state: z.enum(['replying', 'left']) }) },
  async ({ itemId, state }, { memberships, user }) => {
    const db = getDb();
    const access = await memberItemAccess(db, { itemId, memberships, capability: 'answer' });
    if (!access.ok) return { ok: false, status: access.status, message: access.message };
    if (state === 'left') await endInboxPresence(db, { itemId, userId: user.id });
    else
      await heartbeatInboxPresence(db, {
        workspaceId: access.workspaceId,
        itemId,
        userId: user.id,
        ttlMs: PRESENCE_TTL_MS,
      });
    return { ok: true };
  },
);

export const assignAction = workspaceAction(
  {
    name: 'assignInboxItem',
    can: 'read',
    schema: z.object({ itemId: z.uuid(), userId: z.union([z.uuid(), z.literal('')]) }),
  },
  async ({ itemId, userId }, { memberships }) => {
    const db = getDb();
    const access = await memberItemAccess(db, { itemId, memberships, capability: 'answer' });
    if (!access.ok) return { ok: false, status: access.status, message: access.message };
    const assigned = await assignInboxItem(db, { workspaceId: access.workspaceId, itemId, userId: userId || null });
    if (!assigned) return { ok: false, status: 422, errors: { userId: ['Not a member of this workspace'] } };
    return { ok: true, message: userId ? 'Assigned.' : 'Unassigned.' };
  },
);

export const doneAction = workspaceAction(
  { name: 'markInboxItemDone', can: 'read', schema: z.object({ itemId: z.uuid(), done: z.enum(['true', 'false']) }) },
  async ({ itemId, done }, { memberships, user }) => {
    const db = getDb();
    const access = await memberItemAccess(db, { itemId, memberships, capability: 'answer' });
    if (!access.ok) return { ok: false, status: access.status, message: access.message };
    await markInboxItemDone(db, { workspaceId: access.workspaceId, itemId, userId: user.id, done: done === 'true' });
    return { ok: true, message: done === 'true' ? 'Marked done.' : 'Open again.' };
  },
);

export const noteAction = workspaceAction(
  { name: 'addInboxNote', can: 'read', schema: z.object({ itemId: z.uuid(), text: noteTextSchema, key: clientKey }) },
  async ({ itemId, text, key }, { memberships, user }) => {
    const db = getDb();
    const access = await memberItemAccess(db, { itemId, memberships, capability: 'answer' });
    if (!access.ok) return { ok: false, status: access.status, message: access.message };
    const added = await addInboxNote(db, {
      workspaceId: access.workspaceId,
      itemId,
      userId: user.id,
      clientKey: key,
      text,
    });
    return added === 'not_found'
      ? { ok: false, status: 404, message: 'This item is not in your inbox.' }
      : { ok: true, message: 'Note added.' };
  },
);
