import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, deliveryEvents } from '@/db/schema';
import { createApiFixture, noParams } from '@/testing/api-fixture';
import { makeUser } from '@/testing/db/factories';
import { composeFormSchema, submitComposeForm } from '@/lib/posts/compose-form';
import { POST as createPost } from './route';

const fixture = await createApiFixture();
const { db } = fixture;
const tenant = await fixture.tenant();

/** The `created` history rows of a post's deliveries. */
const createdEvents = (postId: string) =>
  db
    .select({ detail: deliveryEvents.detail })
    .from(deliveryEvents)
    .innerJoin(deliveries, eq(deliveries.id, deliveryEvents.deliveryId))
    .where(and(eq(deliveries.postId, postId), eq(deliveryEvents.reason, 'created')));

describe('X-Request-Id in the delivery history', () => {
  it('a post created through the API keeps the request id in each delivery’s `created` row', async () => {
    const response = await createPost(
      new Request('http://localhost/api/v1/posts', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tenant.token}`,
          'idempotency-key': randomUUID(),
          'content-type': 'application/json',
          'x-request-id': 'api-req-1',
        },
        body: JSON.stringify({ text: `Request id ${randomUUID()}`, accountIds: tenant.accounts.map((a) => a.id) }),
      }),
      noParams,
    );
    expect(response.status).toBe(201);
    const events = await createdEvents((await response.json()).id);
    expect(events).toHaveLength(2);
    for (const e of events) expect(e.detail).toMatchObject({ source: 'api', requestId: 'api-req-1' });
  });

  it('a post created by the compose form (server action) keeps the id it was given', async () => {
    const user = await makeUser(db);
    const form = composeFormSchema.parse({
      idempotencyKey: randomUUID(),
      text: `Form ${randomUUID()}`,
      accountIds: tenant.accounts[0]!.id,
      when: 'now',
    });
    const result = await submitComposeForm(db, form, {
      workspaceId: tenant.workspace.id,
      userId: user.id,
      requestId: 'form-req-1',
    });
    expect(result.ok).toBe(true);
    const events = await createdEvents((result as { postId: string }).postId);
    expect(events).toHaveLength(1);
    expect(events[0]!.detail).toMatchObject({ source: 'form', requestId: 'form-req-1' });
  });
});
