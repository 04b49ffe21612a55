import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { closedPort } from '../wire/servers';

// The reference Bluesky PDS (@atproto/pds, SQLite in a temp dir) and a PLC directory (@did-plc/server on its
// in-memory database), both on loopback only, as @atproto/dev-env's TestPds/TestPlc start them.

export type PdsAccount = { did: string; handle: string; password: string; appPassword: string };
export type PdsFixture = {
  /** The PDS's own origin, http://127.0.0.1:port (the DID documents name http://localhost:port). */
  url: string;
  plcUrl: string;
  startedInMs: number;
  createAccount: (name?: string) => Promise<PdsAccount>;
  /** listRecords of app.bsky.feed.post, read on the PDS directly (no proxy, no Semel code). */
  listPosts: (did: string) => Promise<{ uri: string; cid: string; value: Record<string, unknown> }[]>;
  xrpc: (
    nsid: string,
    init?: { body?: unknown; token?: string; query?: Record<string, string> },
  ) => Promise<XrpcAnswer>;
  stop: () => Promise<void>;
};
export type XrpcAnswer = { status: number; body: Record<string, unknown> };

/** A secp256k1 private key as the PDS's PLC rotation key takes it: 32 bytes, hex. */
function k256PrivateKeyHex(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  return Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url').toString('hex');
}

/** Listens on 127.0.0.1 only (PDS.start and PlcServer.start listen on every interface). */
function listenOnLoopback(app: { listen: (port: number, host: string) => Server }, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, '127.0.0.1');
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export async function startPdsFixture(): Promise<PdsFixture> {
  const started = performance.now();
  // Loaded here so the start time below counts loading the servers' code too.
  const [{ PDS }, { Database: PlcDatabase, PlcServer }] = await Promise.all([
    import('@atproto/pds'),
    import('@did-plc/server'),
  ]);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'semel-pds-'));

  const plc = PlcServer.create({ db: PlcDatabase.mock(), port: 0 });
  const plcServer = await listenOnLoopback(plc.app, await closedPort());
  const plcUrl = `http://127.0.0.1:${(plcServer.address() as { port: number }).port}`;

  // The port is chosen first: the PDS writes its public URL (http://localhost:port) into every DID document.
  const port = await closedPort();
  const pds = await PDS.fromEnv({
    devMode: true,
    port,
    hostname: 'localhost',
    dataDirectory: dataDir,
    blobstoreDiskLocation: path.join(dataDir, 'blobs'),
    didPlcUrl: plcUrl,
    plcRotationKeyK256PrivateKeyHex: k256PrivateKeyHex(),
    jwtSecret: randomBytes(16).toString('hex'),
    adminPassword: randomBytes(16).toString('hex'),
    serviceHandleDomains: ['.test'],
    inviteRequired: false,
    // No AppView, moderation service or crawler: nothing leaves this machine.
    crawlers: [],
    rateLimitsEnabled: false,
  });
  await pds.ctx.sequencer.start();
  const pdsServer = await listenOnLoopback(pds.app, port);
  const url = `http://127.0.0.1:${port}`;

  async function xrpc(
    nsid: string,
    init: { body?: unknown; token?: string; query?: Record<string, string> } = {},
  ): Promise<XrpcAnswer> {
    const query = init.query ? `?${new URLSearchParams(init.query)}` : '';
    const response = await fetch(`${url}/xrpc/${nsid}${query}`, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  async function createAccount(name = `u${randomBytes(4).toString('hex')}`): Promise<PdsAccount> {
    const handle = `${name}.test`;
    const password = randomBytes(12).toString('hex');
    const created = await xrpc('com.atproto.server.createAccount', {
      body: { handle, email: `${name}@example.test`, password },
    });
    if (created.status !== 200) throw new Error(`createAccount: ${created.status} ${JSON.stringify(created.body)}`);
    const token = String(created.body.accessJwt);
    const app = await xrpc('com.atproto.server.createAppPassword', { token, body: { name: 'semel' } });
    if (app.status !== 200) throw new Error(`createAppPassword: ${app.status} ${JSON.stringify(app.body)}`);
    return { did: String(created.body.did), handle, password, appPassword: String(app.body.password) };
  }

  async function listPosts(did: string) {
    const records: { uri: string; cid: string; value: Record<string, unknown> }[] = [];
    let cursor: string | undefined;
    do {
      const query: Record<string, string> = { repo: did, collection: 'app.bsky.feed.post', limit: '100' };
      if (cursor) query.cursor = cursor;
      const page = await xrpc('com.atproto.repo.listRecords', { query });
      if (page.status !== 200) throw new Error(`listRecords: ${page.status} ${JSON.stringify(page.body)}`);
      const list = page.body.records as typeof records;
      records.push(...list);
      cursor = list.length === 100 ? (page.body.cursor as string | undefined) : undefined;
    } while (cursor);
    return records;
  }

  const startedInMs = Math.round(performance.now() - started);
  console.log(`PDS fixture: PLC ${plcUrl}, PDS ${url}, started in ${startedInMs} ms`);
  return {
    url,
    plcUrl,
    startedInMs,
    createAccount,
    listPosts,
    xrpc,
    stop: async () => {
      await closeServer(pdsServer);
      await pds.destroy();
      await closeServer(plcServer);
      await plc.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
