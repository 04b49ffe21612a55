import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { upsertAccount } from '@/db/queries/accounts';
import { makeWorkspace } from '@/testing/db/factories';
import { sealCredentials } from '@/lib/providers/credentials';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { deliveryStates, schedulePosts, testPublisherOptions } from '@/testing/publisher';
import { sandboxCredentials } from './connect';
import { startTestSandbox } from '@/testing/sandbox';
import { TEST_ENCRYPTION_KEY } from '@/testing/keys';
import { newSandboxIdentity } from '@/sandbox/oauth/tokens';

const sandbox = await startTestSandbox();
const { db } = sandbox;

describe('a seeded Bluesky account (stored by the app, not yet known to the sandbox)', () => {
  it('publishes on first use: the session names the DID, and the sandbox registers the account then', async () => {
    const workspace = await makeWorkspace(db);
    const { platformUserId, token, suffix } = newSandboxIdentity('bluesky');
    const handle = `@seeded-${suffix}.bsky.sandbox`;
    // What scripts/seed/seed.ts does: the product account only, with a session signed for its app password.
    const account = await upsertAccount(db, {
      workspaceId: workspace.id,
      provider: 'bluesky',
      sandbox: true,
      handle,
      platformUserId,
      baseUrl: '/api/sandbox/bluesky',
      ...sealCredentials(sandboxCredentials('bluesky', { platformUserId, handle, token }), TEST_ENCRYPTION_KEY),
    });
    const text = `seeded ${randomUUID()}`;
    const [id] = await schedulePosts(db, { workspaceId: workspace.id, accountId: account!.id, count: 1, label: text });
    await publishDueDeliveries(db, testPublisherOptions(sandbox.url));
    expect((await deliveryStates(db, [id!])).get(id!)).toMatchObject({ status: 'sent' });
  });
});
