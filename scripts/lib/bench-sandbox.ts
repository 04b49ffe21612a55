// The platform the publishing benchmarks publish to: the standalone sandbox server (scripts/sandbox-server.mts) in its
// own process and in memory, its accounts connected in a workspace, and its own record of every copy.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Database } from '@/db/client';
import { upsertAccount } from '@/db/queries/accounts';
import { sealCredentials } from '@/lib/providers/credentials';
import type { TimelineAccount } from '@/sandbox/http/control';
import { newSandboxIdentity } from '@/sandbox/oauth/tokens';

export type SandboxIdentity = ReturnType<typeof newSandboxIdentity> & { platform: 'x' | 'mastodon' };
export type SandboxCopy = { accountId: string; text: string };

/** `count` new accounts, round-robin over the platforms. */
export function sandboxIdentities(count: number, platforms: readonly ('x' | 'mastodon')[]): SandboxIdentity[] {
  return Array.from({ length: count }, (_, i) => ({
    platform: platforms[i % platforms.length]!,
    ...newSandboxIdentity(),
  }));
}

/** Starts the sandbox server with these accounts (handles `@<prefix>_<suffix>`); stopped when this process exits. */
export async function startSandboxProcess(
  identities: readonly SandboxIdentity[],
  options: { handlePrefix: string; cpuProfDir?: string },
): Promise<{ process: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      ...(options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : []),
      '--import',
      'tsx',
      'scripts/sandbox-server.mts',
      '--memory',
      '--port',
      '0',
      ...identities.flatMap((a) => [
        '--account',
        `${a.platform}:${a.platformUserId}:${a.token}:@${options.handlePrefix}_${a.suffix}`,
      ]),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  );
  // Whatever happens here (even a crash), the sandbox process group goes with this one.
  process.on('exit', () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
  });
  return { process: child, url: await waitForSandbox(child) };
}

/** The accounts connected in one workspace, pointing at the sandbox; their ids in the identities' order. */
export async function registerSandboxAccounts(
  db: Database,
  params: { workspaceId: string; identities: readonly SandboxIdentity[]; encryptionKey: string; handlePrefix: string },
): Promise<string[]> {
  const ids: string[] = [];
  for (const a of params.identities) {
    const row = await upsertAccount(db, {
      workspaceId: params.workspaceId,
      provider: a.platform,
      sandbox: true,
      handle: `@${params.handlePrefix}_${a.suffix}`,
      platformUserId: a.platformUserId,
      baseUrl: `/api/sandbox/${a.platform}`,
      ...sealCredentials({ accessToken: a.token }, params.encryptionKey),
    });
    ids.push(row!.id);
  }
  return ids;
}

export async function fetchTimeline(sandboxUrl: string): Promise<TimelineAccount[]> {
  const response = await fetch(`${sandboxUrl}/api/sandbox/timeline?limit=1000`);
  if (!response.ok) throw new Error(`sandbox timeline: HTTP ${response.status}`);
  return ((await response.json()) as { accounts: TimelineAccount[] }).accounts;
}

/** Every copy the sandbox lists, by its own id (a copy listed twice is still one copy). */
export async function collectTimeline(sandboxUrl: string, into: Map<string, SandboxCopy>) {
  for (const account of await fetchTimeline(sandboxUrl))
    for (const post of account.posts) into.set(post.id, { accountId: account.accountId, text: post.text });
}

async function waitForSandbox(child: ChildProcess): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`sandbox server exited (${code}) before listening`);
  });
  const listening = (async () => {
    for await (const line of lines) {
      const match = /listening on (http:\/\/\S+)\/api\/sandbox/.exec(line);
      if (match) return match[1]!;
    }
    throw new Error('sandbox server closed its output before listening');
  })();
  const url = await Promise.race([listening, exited]);
  exited.catch(() => {}); // it exits when the bench stops it
  child.stdout!.resume();
  return url;
}

/** Copies of one text on one account beyond the first, and how many copies each (account, text) has. */
export function tallyCopies(copies: Iterable<SandboxCopy>) {
  const perText = new Map<string, number>();
  for (const { accountId, text } of copies)
    perText.set(`${accountId}\u0000${text}`, (perText.get(`${accountId}\u0000${text}`) ?? 0) + 1);
  const duplicates = [...perText.values()].reduce((sum, n) => sum + n - 1, 0);
  return { perText, duplicates };
}
