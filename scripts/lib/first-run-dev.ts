// The development path, as a newcomer takes it: cp .env.example .env && npm run dev; then the dashboard answers and
// a post to a seeded sandbox account goes out through the public API, with a key made by `npm run apikey`.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { describeAttempts, PublicApi, sandboxCopies } from './first-run-api';
import { freePort, newcomerEnv, startNpm } from './first-run-server';
import { onCleanup, Phase, until } from './first-run-steps';

export async function checkDevelopmentPath(phase: Phase, preferredPort: number): Promise<void> {
  const port = await freePort(preferredPort);
  const env: NodeJS.ProcessEnv = { ...newcomerEnv(), PORT: String(port), NODE_ENV: 'development' };
  delete env.NEXT_DIST_DIR; // `next dev` writes into .next/dev, beside (not over) a production build in .next
  const base = `http://localhost:${port}`;

  // A newcomer's .data (embedded Postgres, generated secrets) goes again afterwards; one that was here stays.
  if (!existsSync('.data'))
    onCleanup('remove the .data it made', () => rmSync('.data', { recursive: true, force: true }));
  copyFileSync('.env.example', '.env');
  onCleanup('remove the .env it wrote', () => rmSync('.env', { force: true }));
  const dev = startNpm('dev', env);
  phase.context.push(() => `--- npm run dev output (last 4000 characters) ---\n${dev.output().slice(-4000)}`);

  await phase.step(
    `npm run dev answers /api/health on ${base}`,
    () => until(async () => (await fetch(`${base}/api/health`)).ok, dev.gone),
    240_000,
  );
  await phase.step('the sign-in page renders', async () => {
    const signin = await fetch(`${base}/signin`);
    if (!signin.ok || !(await signin.text()).includes('Sign in')) throw new Error(`/signin answered ${signin.status}`);
  });
  const token = await phase.step('npm run apikey makes a key for the demo workspace', async () => {
    const apikey = spawnSync('npx', ['tsx', 'scripts/apikey.mts', '--workspace', 'demo', '--name', 'first-run check'], {
      env,
      encoding: 'utf8',
    });
    const line = apikey.stdout.trim().split('\n').at(-1);
    if (apikey.status !== 0 || !line) throw new Error(`npm run apikey failed: ${apikey.stderr}`);
    return line;
  });
  const api = new PublicApi(base, token);
  const account = await phase.step('GET /api/v1/accounts lists a seeded sandbox account', async () => {
    const accounts = await api.accounts();
    const found = accounts.find((a) => a.sandbox && a.provider === 'mastodon') ?? accounts.find((a) => a.sandbox);
    if (!found) throw new Error('no seeded sandbox account');
    return found;
  });
  const post = await phase.step(`POST /api/v1/posts to ${account.handle}`, () => api.createPost(account, 'dev'));
  phase.context.push(() => describeAttempts('.data', post.id));
  await phase.step('the scheduler sends it', () => api.untilSent(post.id, dev.gone, 180_000), 190_000);
  await phase.step('the sandbox holds exactly one copy', async () => {
    const copies = await sandboxCopies('.data', post.text);
    if (copies !== 1) throw new Error(`the sandbox holds ${copies} copies of the post`);
  });
}
