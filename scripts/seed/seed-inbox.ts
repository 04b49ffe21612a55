import type { Database } from '@/db/client';
import { listAccounts } from '@/db/queries/accounts';
import { resolveProfile } from '@/sandbox/behaviour/profiles';
import { seedInboundRate } from '@/sandbox/db/queries/inbound';
import { getSandboxAccountByUserId } from '@/sandbox/db/queries/store';

/** How many replies, mentions and DMs each demo account receives a day (the sandbox's people: docs/sandbox.md#inbound). */
export const DEMO_INBOUND_PER_DAY = 12;

/**
 * The demo inbox: each seeded sandbox account of the workspace receives what the sandbox's people say to it, so the
 * inbox job has something to read (its setting is kept when someone changed it on the Sandbox page).
 */
export async function seedDemoInbox(db: Database, workspaceId: string) {
  for (const account of await listAccounts(db, { workspaceId })) {
    if (!account.sandbox) continue;
    const known = await getSandboxAccountByUserId(db, {
      platform: account.provider,
      platformUserId: account.platformUserId,
    });
    if (!known) continue;
    await seedInboundRate(db, {
      accountId: known.id,
      profile: resolveProfile(account.provider, undefined),
      perDay: DEMO_INBOUND_PER_DAY,
    });
  }
}
