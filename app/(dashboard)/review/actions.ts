'use server';

import { z } from 'zod';
import { getDb } from '@/db/client';
import { notifyDue } from '@/db/queries/publishing';
import { resolveReviewItem, type ReviewResolution } from '@/db/queries/deliveries';
import { workspaceAction } from '@/lib/auth/action';
import { can } from '@/lib/auth/can';
import { logger } from '@/lib/logging/logger';
import { getEnv } from '@/lib/env';
import { appOrigin } from '@/lib/providers';
import { deleteExtraCopies } from '@/lib/review/delete-extra-copies';
import { parseLiveLink } from '@/lib/review/live-link';

const schema = z.object({
  workspaceId: z.uuid(),
  deliveryId: z.uuid(),
  action: z.enum(['live', 'publish', 'cancel', 'delete_extras']),
  link: z.string().max(2048).optional(),
  checked: z.literal('on').optional(),
});

/**
 * An admin's decision on a review item. The item may belong to any workspace the user administers
 * (the review list spans them), so the role is checked against that workspace here, on the server.
 */
export const resolveReviewAction = workspaceAction(
  { name: 'resolveReview', can: 'read', schema },
  async (input, { user, memberships }) => {
    const membership = memberships.find((m) => m.id === input.workspaceId);
    if (!membership || !can(membership.role, 'review')) {
      logger.warn({ userId: user.id, workspaceId: input.workspaceId }, 'review action refused: not an admin there');
      return { ok: false, status: 403, message: 'You do not have permission to do this (needs admin).' };
    }
    if (input.action === 'delete_extras') {
      const result = await deleteExtraCopies(getDb(), {
        workspaceId: input.workspaceId,
        deliveryId: input.deliveryId,
        actorUserId: user.id,
        encryptionKey: getEnv().APP_ENCRYPTION_KEY,
        origin: appOrigin(),
      });
      logger.info(
        { userId: user.id, deliveryId: input.deliveryId, deleted: result.deleted.length, ok: result.ok },
        'review: delete extra copies',
      );
      if (!result.ok) return { ok: false, status: result.status, message: result.message };
      if (!result.applied)
        return {
          ok: true,
          message: `Already resolved: this delivery is ${result.currentStatus?.replace('_', ' ') ?? 'gone'}. Nothing changed.`,
        };
      return {
        ok: true,
        message: `Deleted ${result.deleted.length} extra ${result.deleted.length === 1 ? 'copy' : 'copies'}; one copy stays live.`,
      };
    }
    let resolution: ReviewResolution;
    if (input.action === 'live') {
      const link = parseLiveLink(input.link ?? '');
      if (!link.ok) return { ok: false, status: 422, errors: { link: [link.error] }, message: link.error };
      resolution = { action: 'live', externalId: link.externalId, url: link.url };
    } else if (input.action === 'publish') {
      if (!input.checked)
        return {
          ok: false,
          status: 422,
          errors: { checked: ['Tick "I checked the account" first'] },
          message: 'Confirm that you checked the account first.',
        };
      resolution = { action: 'publish' };
    } else {
      resolution = { action: 'cancel' };
    }
    const result = await resolveReviewItem(getDb(), {
      workspaceId: input.workspaceId,
      deliveryId: input.deliveryId,
      actorUserId: user.id,
      resolution,
    });
    if (result.applied && input.action === 'publish') await notifyDue(getDb()); // the scheduler picks it up now
    // No revalidation here: the item stays on screen with its outcome; the list is fresh on the next visit.
    if (!result.applied)
      return {
        ok: true,
        message: `Already resolved: this delivery is ${result.currentStatus?.replace('_', ' ') ?? 'gone'}. Nothing changed.`,
      };
    return {
      ok: true,
      message:
        input.action === 'live'
          ? 'Marked as sent.'
          : input.action === 'publish'
            ? 'Back in the queue: it will be published once.'
            : 'Canceled.',
    };
  },
);
