import { defineRoute, jsonResponse, problemResponse } from '@/lib/api/contract/define';
import { z } from '@/lib/api/contract/zod';

const disconnectedSchema = z
  .object({
    id: z.uuid(),
    status: z.literal('disconnected'),
    heldDeliveries: z.int().openapi({
      description: 'Scheduled deliveries of the account now held in review (needs_review) until someone decides.',
    }),
  })
  .openapi('DisconnectedAccount');

/** /api/v1/accounts/{id} — the contract of ./route.ts. */
export const accountContract = defineRoute('/accounts/{id}', {
  DELETE: {
    operationId: 'disconnectAccount',
    summary: 'Disconnect an account',
    description:
      "The Accounts page's disconnect: the sealed token is deleted, the account's scheduled deliveries are held in review (nothing is published or lost behind your back), and its posts and their history stay readable. Connecting the same platform account again (POST /accounts) reconnects it. Repeating the call answers 404.",
    scope: 'accounts:write',
    request: { params: z.object({ id: z.uuid().openapi({ description: 'The account id' }) }) },
    responses: {
      200: jsonResponse('Disconnected', disconnectedSchema),
      404: problemResponse(
        "No connected account with this id in this workspace (already disconnected, or another workspace's)",
      ),
    },
  },
});
