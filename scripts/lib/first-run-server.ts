// Starting `npm run dev` / `npm start` for the first-run check: in a process group of its own (so npm, Next.js and an
// embedded Postgres stop together), its output kept for the failure report, and an environment as on a new machine.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { onCleanup, sleep } from './first-run-steps';

export type Server = {
  /** Everything it printed so far, with the values passed to `redact` replaced. */
  output: () => string;
  /** Null while it runs; otherwise why it is gone, for a failure message. */
  gone: () => string | null;
  redact: (secret: string, label: string) => void;
};

/** Starts `npm run <script>` in its own process group; stopping the group is registered as a clean-up. */
export function startNpm(script: string, env: NodeJS.ProcessEnv): Server {
  const child = spawn('npm', ['run', script], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const secrets: [string, string][] = [];
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  onCleanup(`stop npm run ${script}`, () => stopGroup(child.pid!));
  return {
    output: () => secrets.reduce((text, [secret, label]) => text.replaceAll(secret, label), output),
    gone: () => (child.exitCode === null ? null : `npm run ${script} exited with code ${child.exitCode}`),
    redact: (secret, label) => void secrets.push([secret, label]),
  };
}

/**
 * SIGINT to the whole group (with-db stops Next.js and then its database; Postgres takes it as a fast shutdown),
 * waits until every process of it is gone, SIGKILL after 15 s. Returns once the group is empty, so the files and
 * the database it used can go.
 */
export async function stopGroup(pid: number): Promise<void> {
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-pid, name);
      return true;
    } catch {
      return false; // ESRCH: no process left in the group
    }
  };
  if (!signal('SIGINT')) return;
  for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
    await sleep(250);
    if (!signal(0)) return;
  }
  signal('SIGKILL');
}

/**
 * The environment as on a machine that never ran Semel: every variable .env.example names is removed from this
 * shell's (a DATABASE_URL, an SMTP_URL or an X_CLIENT_ID exported here would otherwise change what is checked).
 */
export function newcomerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  for (const line of readFileSync('.env.example', 'utf8').split('\n')) {
    const name = /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
    if (name) delete env[name];
  }
  return env;
}

/** `preferred` when free, else any free port. */
export function freePort(preferred: number): Promise<number> {
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
