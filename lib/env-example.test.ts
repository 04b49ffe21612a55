import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseEnv } from './env';
import { logLevel } from './logging/level';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'semel-env-example-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** `.env.example` as dotenv reads it: KEY=VALUE lines, comments and blank lines skipped. */
function readEnvExample(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(path.join(root, '.env.example'), 'utf8').split('\n')) {
    const match = /^\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) out[match[1]!] = match[2]!.trim();
  }
  return out;
}

/** A child process with a clean environment (no inherited NODE_ENV=test or DATABASE_URL). */
function run(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } as unknown as NodeJS.ProcessEnv,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('cp .env.example .env gives a working configuration', () => {
  it('every variable in .env.example is blank, and blank means the default', () => {
    const example = readEnvExample();
    expect(Object.keys(example).length).toBeGreaterThan(10);
    expect(example).toHaveProperty('LOG_LEVEL', '');
    expect(example).toHaveProperty('API_RATE_LIMIT_PER_MINUTE', '');
    for (const [name, value] of Object.entries(example)) expect(value, name).toBe('');
    const env = parseEnv({ ...example, SEMEL_DATA_DIR: dataDir } as unknown as NodeJS.ProcessEnv);
    expect(env).toMatchObject({
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      API_RATE_LIMIT_PER_MINUTE: 600,
      PORT: 3000,
      SCHEDULER_ENABLED: true,
    });
    expect(logLevel(example)).toBe('info');
  });

  it('the logger loads with a blank LOG_LEVEL (it crashed the instrumentation hook before)', () => {
    const result = run(
      ['-e', "import('./lib/logging/logger.ts').then((m) => { (m.logger ?? m.default.logger).info('logger-ready'); })"],
      { LOG_LEVEL: '' },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('logger-ready');
  });
});

describe('an invalid environment prints a short message naming each variable, then exits 1', () => {
  const invalid = { NODE_ENV: 'production', PORT: 'eighty', API_RATE_LIMIT_PER_MINUTE: '0', SEMEL_DATA_DIR: dataDir };

  it.each([
    ['npm start / npm run dev (scripts/with-db.mts)', ['scripts/with-db.mts', '--', 'true']],
    [
      "the server's instrumentation hook",
      ['-e', "import('./instrumentation.ts').then((m) => (m.register ?? m.default.register)())"],
    ],
  ])('%s', (_name, args) => {
    const result = run(args, { ...invalid, NEXT_RUNTIME: 'nodejs' });
    expect(result.code).toBe(1);
    const output = result.stderr + result.stdout;
    for (const name of ['NEXTAUTH_SECRET', 'APP_ENCRYPTION_KEY', 'CRON_SECRET', 'PORT', 'API_RATE_LIMIT_PER_MINUTE'])
      expect(output).toContain(name);
    expect(output.length).toBeLessThan(1500);
    expect(output).not.toMatch(/^\s+at /m); // no stack trace
    expect(output).not.toContain('function ');
  });
});
