// The sandbox network in its own process, as a real platform would be (benchmarks, chaos runs):
//   npm run sandbox -- --port 4010                 on the app's database (DATABASE_URL or the embedded one)
//   npm run sandbox -- --port 4010 --memory        in memory; accounts from --account x:<userId>:<token>[:<handle>]
// Accounts then point their base URL at http://127.0.0.1:4010/api/sandbox/x (or /mastodon).
import { parseArgs } from 'node:util';
import { createDatabase } from '@/db/client';
import { getEnv } from '@/lib/env';
import { createMemorySandboxStore } from '@/sandbox/store/memory-store';
import { startSandboxServer } from '@/sandbox/http/node-server';
import { createPgSandboxStore } from '@/sandbox/store/pg-store';
import { newSandboxIdentity } from '@/sandbox/oauth/tokens';
import type { Platform, SandboxDeps } from '@/sandbox/store/types';
import { registerProductSandboxAccounts, workspaceScopeResolver } from '@/lib/sandbox/workspace-scope';
import { resolveDatabase } from './lib/database';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    memory: { type: 'boolean', default: false },
    account: { type: 'string', multiple: true, default: [] },
    'control-token': { type: 'string' },
  },
});

let deps: SandboxDeps;
let stopDatabase = async () => {};
if (values.memory) {
  const store = createMemorySandboxStore();
  const specs =
    values.account!.length > 0
      ? values.account!
      : ['x', 'mastodon'].map((p) => {
          const { platformUserId, token, suffix } = newSandboxIdentity();
          return `${p}:${platformUserId}:${token}:@sandbox_${suffix}`;
        });
  for (const spec of specs) {
    const [platform, platformUserId, token, handle] = spec.split(':');
    if ((platform !== 'x' && platform !== 'mastodon') || !platformUserId || !token)
      throw new Error(`--account ${spec}: expected x|mastodon:<userId>:<token>[:<handle>]`);
    await store.registerAccount({
      platform: platform as Platform,
      platformUserId,
      token,
      handle: handle ?? `@user_${platformUserId}`,
    });
    console.log(`account ${platform} ${platformUserId} token ${token}`);
  }
  const controlToken = values['control-token'];
  deps = {
    store,
    // In memory there are no workspaces: the control token (when set) guards every account.
    resolveScope: async (request) => {
      if (controlToken && request.headers.get('authorization') !== `Bearer ${controlToken}`) {
        return new Response(JSON.stringify({ title: 'Unauthorized', status: 401 }), {
          status: 401,
          headers: { 'content-type': 'application/problem+json' },
        });
      }
      return store
        .listAccounts()
        .map((account) => ({ accountId: account.id, handle: account.handle, disconnected: false, account }));
    },
  };
} else {
  const env = getEnv();
  const database = await resolveDatabase();
  const { db, close } = createDatabase(database.url);
  stopDatabase = async () => {
    await close();
    await database.stop();
  };
  deps = {
    store: createPgSandboxStore(db, {
      onUnknownToken: () => registerProductSandboxAccounts(db, env.APP_ENCRYPTION_KEY),
    }),
    resolveScope: workspaceScopeResolver({ db, encryptionKey: env.APP_ENCRYPTION_KEY }),
  };
}

const server = await startSandboxServer({ deps, port: Number(values.port), host: values.host });
console.log(
  `sandbox network (${values.memory ? 'in memory' : 'on the database'}) listening on ${server.url}/api/sandbox`,
);
const stop = async () => {
  await server.close();
  await stopDatabase();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
