import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveries, deliveryStatusEnum, type DeliveryStatus } from '@/db/schema';
import { makeAccount, makePost, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import {
  ALLOWED_TRANSITIONS,
  canTransition,
  transitionFunctionBody,
  transitionTriggerFunctionSql,
} from './transitions';

const STATUSES = deliveryStatusEnum.enumValues;
const PAIRS = STATUSES.flatMap((from) =>
  STATUSES.filter((to) => to !== from).map((to) => [from, to] as [DeliveryStatus, DeliveryStatus]),
);
const { db } = await createTestDatabase();
let workspaceId: string;
let accountId: string;

beforeAll(async () => {
  workspaceId = (await makeWorkspace(db)).id;
  accountId = (await makeAccount(db, workspaceId)).id;
});

describe('I5 — monotonic status: the transition table', () => {
  it.each(PAIRS)('%s → %s', (from, to) => {
    const expected = ALLOWED_TRANSITIONS[from].includes(to);
    expect(canTransition(from, to)).toBe(expected);
  });

  it('settled states leave only for review and nothing returns to publishing except from scheduled', () => {
    // failed, canceled and missed leave only for review, when the late-copy watch finds a copy after a release.
    for (const final of ['failed', 'canceled', 'missed'] as const)
      expect(ALLOWED_TRANSITIONS[final]).toEqual(['needs_review']);
    // sent leaves only for review, when the late-copy watch finds a second copy (docs/architecture.md#late-copies);
    // never to be published again.
    expect(ALLOWED_TRANSITIONS.sent).toEqual(['needs_review']);
    for (const from of STATUSES)
      if (from !== 'scheduled' && from !== 'publishing') expect(canTransition(from, 'publishing')).toBe(false);
  });
});

describe('I5 — monotonic status: the database trigger agrees with the table on every pair', () => {
  it.each(PAIRS)('%s → %s', async (from, to) => {
    const post = await makePost(db, workspaceId);
    const [row] = await db
      .insert(deliveries)
      .values({ workspaceId, postId: post.id, accountId, dueAt: new Date(), status: from })
      .returning();
    const attempt = db.update(deliveries).set({ status: to }).where(eq(deliveries.id, row!.id));
    if (ALLOWED_TRANSITIONS[from].includes(to)) {
      await expect(attempt).resolves.toBeDefined();
    } else {
      await expect(attempt).rejects.toMatchObject({ cause: { constraint_name: 'deliveries_status_transition_ck' } });
      const [after] = await db.select({ status: deliveries.status }).from(deliveries).where(eq(deliveries.id, row!.id));
      expect(after!.status).toBe(from);
    }
  });
});

describe('I5 — monotonic status: the live trigger is the one generated from the table', () => {
  it('pg_get_functiondef of deliveries_check_status_transition() has exactly the generated body', async () => {
    const [row] = [
      ...(await db.execute<{ def: string }>(
        sql`select pg_get_functiondef('deliveries_check_status_transition'::regproc) as def`,
      )),
    ];
    const body = /AS \$function\$([\s\S]*)\$function\$/.exec(row!.def)?.[1];
    expect(body).toBe(transitionFunctionBody());
    // Every allowed pair appears in the live source, so the comparison above is not vacuous.
    for (const [from, to] of Object.entries(ALLOWED_TRANSITIONS))
      if (to.length) expect(row!.def).toContain(`old.status = '${from}'`);
  });

  it('the generated statement installs a function whose body is read back unchanged', async () => {
    await db
      .transaction(async (tx) => {
        await tx.execute(
          sql.raw(
            transitionTriggerFunctionSql().replace(
              'deliveries_check_status_transition()',
              'check_transition_roundtrip()',
            ),
          ),
        );
        const [row] = [
          ...(await tx.execute<{ def: string }>(
            sql`select pg_get_functiondef('check_transition_roundtrip'::regproc) as def`,
          )),
        ];
        expect(/AS \$function\$([\s\S]*)\$function\$/.exec(row!.def)?.[1]).toBe(transitionFunctionBody());
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error && error.message === 'Rollback')) throw error;
      });
  });
});
