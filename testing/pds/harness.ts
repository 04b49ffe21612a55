import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, expect } from 'vitest';
import { connectAccount } from '@/db/queries/accounts';
import { attempts, deliveries } from '@/db/schema';
import { makeWorkspace } from '../db/factories';
import { createTestDatabase } from '../db/test-database';
import { createDiskMediaStorage } from '@/lib/media/storage';
import { sealCredentials } from '@/lib/providers/credentials';
import { providerDefinition, verifyAccount } from '@/lib/providers';
import { publishDueDeliveries } from '@/lib/publishing/publish-due';
import { deliveryStates, testPublisherOptions } from '../publisher';
import { reconcileAmbiguousDeliveries } from '@/lib/reconcile/reconcile';
import { testReconcileOptions } from '../reconciler';
import { TEST_ENCRYPTION_KEY } from '../keys';
import { startFaultProxy } from '../wire/fault-proxy';
import { startPdsFixture } from './fixture';

/**
 * For one test file: its database, the reference PDS with a fault proxy in front, and Semel's real publisher and
 * reconciler pointed at accounts connected through that proxy. Stopped after the file.
 */
export async function startPdsHarness(options: { callTimeoutMs: number }) {
  // A self-hoster's PDS on their own network is allowed the same way (production allows only public addresses).
  process.env.OUTBOUND_ALLOWED_HOSTS = '127.0.0.1';
  const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-pds-media-'));
  process.env.MEDIA_DIR = mediaDir;
  process.env.APP_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;

  const { db } = await createTestDatabase();
  const pds = await startPdsFixture();
  const proxy = await startFaultProxy(pds.url);
  const storage = createDiskMediaStorage(mediaDir);
  afterAll(async () => {
    await proxy.close();
    await pds.stop();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  const publish = () =>
    publishDueDeliveries(
      db,
      testPublisherOptions(proxy.url, {
        callTimeoutMs: options.callTimeoutMs,
        budgetMs: 30_000,
        mediaStorage: storage,
      }),
    );
  const reconcile = () => reconcileAmbiguousDeliveries(db, testReconcileOptions(proxy.url, { readTimeoutMs: 5_000 }));
  const status = async (id: string) => (await deliveryStates(db, [id])).get(id)!;
  const dueNow = (id: string) => db.update(deliveries).set({ dueAt: new Date() }).where(eq(deliveries.id, id));

  /** An account on the PDS with an app password, connected as the accounts page connects it (verify, then seal). */
  async function connectedAccount() {
    const workspace = await makeWorkspace(db);
    const user = await pds.createAccount();
    const fields = providerDefinition('bluesky').connectSchema.parse({
      serviceUrl: proxy.url,
      identifier: user.handle,
      appPassword: user.appPassword,
    });
    const check = await verifyAccount('bluesky', fields);
    if (!check.ok) throw new Error(check.message);
    expect(check).toMatchObject({ baseUrl: proxy.url, identity: { platformUserId: user.did } });
    const account = await connectAccount(
      db,
      { workspaceId: workspace.id, provider: 'bluesky', sandbox: false, baseUrl: check.baseUrl, ...check.identity },
      (id) => sealCredentials(check.credentials, TEST_ENCRYPTION_KEY, id),
    );
    return { workspaceId: workspace.id, accountId: account.id, did: user.did, credentials: check.credentials };
  }

  /** Reconciles and republishes until the delivery settles (bounded). */
  async function settle(id: string) {
    for (let round = 0; round < 6; round++) {
      const { status: now } = await status(id);
      if (now === 'ambiguous') {
        await dueNow(id);
        await reconcile();
      } else if (now === 'scheduled') {
        await dueNow(id);
        await publish();
      } else return;
    }
  }

  return {
    db,
    pds,
    proxy,
    storage,
    publish,
    status,
    settle,
    connectedAccount,
    attemptOutcomes: async (id: string) =>
      (await db.select().from(attempts).where(eq(attempts.deliveryId, id)).orderBy(attempts.startedAt)).map(
        (a) => a.outcome,
      ),
    externalUrl: async (id: string) =>
      (await db.select({ url: deliveries.externalUrl }).from(deliveries).where(eq(deliveries.id, id)))[0]!.url,
  };
}
