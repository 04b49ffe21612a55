// npm run check:first-run — what a newcomer does, checked end to end:
//   cp .env.example .env && npm run dev
// then the dashboard answers, and a post to a seeded sandbox account goes out (through the public API, with an
// API key made by `npm run apikey`). Refuses to touch an existing .env; removes the one it wrote.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';

const TIMEOUT_MS = 240_000;
if (existsSync('.env')) {
  console.error('first-run check: a .env exists already; not overwriting it');
  process.exit(2);
}

const port = await freePort(3000);
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(port),
  NODE_ENV: 'development',
  NEXT_TELEMETRY_DISABLED: '1',
};
// As on a newcomer's machine: no database configured, nothing else set.
for (const name of ['DATABASE_URL', 'NEXTAUTH_URL', 'NEXT_DIST_DIR', 'SEMEL_DATA_DIR', 'LOG_FILE']) delete env[name];
const base = `http://localhost:${port}`;

copyFileSync('.env.example', '.env');
const dev = spawn('npm', ['run', 'dev'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
dev.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
dev.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
const stop = () => {
  try {
    process.kill(-dev.pid!, 'SIGTERM'); // the whole group: npm, tsx, next dev and the embedded Postgres
  } catch {}
};
const started = Date.now();
let failure: string | null = null;
try {
  await until('the server answers /api/health', async () => (await fetch(`${base}/api/health`)).ok);
  const signin = await fetch(`${base}/signin`);
  if (!signin.ok || !(await signin.text()).includes('Sign in')) throw new Error(`/signin answered ${signin.status}`);
  console.log(`first-run check: the dashboard answers on ${base} (${Math.round((Date.now() - started) / 1000)} s)`);

  const apikey = spawnSync('npx', ['tsx', 'scripts/apikey.mts', '--workspace', 'demo', '--name', 'first-run check'], {
    env,
    encoding: 'utf8',
  });
  const token = apikey.stdout.trim().split('\n').at(-1);
  if (apikey.status !== 0 || !token) throw new Error(`npm run apikey failed: ${apikey.stderr}`);
  const auth = { authorization: `Bearer ${token}` };
  const accounts = (await (await fetch(`${base}/api/v1/accounts`, { headers: auth })).json()) as {
    data: { id: string; provider: string; sandbox: boolean; handle: string }[];
  };
  const account =
    accounts.data.find((a) => a.sandbox && a.provider === 'mastodon') ?? accounts.data.find((a) => a.sandbox);
  if (!account) throw new Error('no seeded sandbox account');
  const created = await fetch(`${base}/api/v1/posts`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ text: `First run ${randomUUID().slice(0, 8)}`, accountIds: [account.id] }),
  });
  if (created.status !== 201) throw new Error(`POST /api/v1/posts answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  await until(`the post to ${account.handle} is sent`, async () => {
    const post = (await (await fetch(`${base}/api/v1/posts/${id}`, { headers: auth })).json()) as {
      deliveries: { status: string }[];
    };
    const statuses = post.deliveries.map((d) => d.status);
    if (statuses.some((s) => ['failed', 'missed', 'needs_review', 'canceled'].includes(s)))
      throw new Error(`delivery ended ${statuses.join(', ')}`);
    return statuses.every((s) => s === 'sent');
  });
  console.log(
    `first-run check: a sandbox post went out through the scheduler (${Math.round((Date.now() - started) / 1000)} s)`,
  );
} catch (error) {
  failure = (error as Error).message;
} finally {
  stop();
  rmSync('.env', { force: true });
}
if (failure) {
  console.error(
    `first-run check FAILED: ${failure}\n--- npm run dev output (last 4000 characters) ---\n${output.slice(-4000)}`,
  );
  process.exit(1);
}
console.log('first-run check: passed');
process.exit(0);

async function until(what: string, check: () => Promise<boolean>) {
  for (;;) {
    if (Date.now() - started > TIMEOUT_MS) throw new Error(`timed out waiting until ${what}`);
    if (dev.exitCode !== null) throw new Error(`npm run dev exited (${dev.exitCode}) before ${what}`);
    try {
      if (await check()) return;
    } catch (error) {
      if (!(error instanceof TypeError)) throw error; // a refused connection while it starts: try again
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

function freePort(preferred: number): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => {
      const any = createServer();
      any.listen(0, '127.0.0.1', () => {
        const { port } = any.address() as { port: number };
        any.close(() => resolve(port));
      });
    });
    server.listen(preferred, () => server.close(() => resolve(preferred)));
  });
}
