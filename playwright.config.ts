import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.data/e2e';
export const E2E_LOG_FILE = `${E2E_DATA_DIR}/server.log`;

export default defineConfig({
  testDir: 'e2e',
  // Run by playwright.sign-in-methods.config.ts, against a server at localhost (passkeys refuse an IP address).
  testIgnore: 'sign-in-methods/**',
  fullyParallel: false,
  // A stray test.only would silently run one test in CI and pass.
  forbidOnly: !!process.env.CI,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // A trace records every action's DOM and a screencast: 19 % of the run's time here (24 tests: 155 s with, 126 s
    // without). CI keeps no file it writes, so there it is off and a failure leaves its error and a screenshot;
    // locally a failed test keeps its trace (npx playwright show-trace).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // Debian's Chromium where present (no browser download needed); Playwright's own elsewhere.
        launchOptions: existsSync(SYSTEM_CHROMIUM)
          ? {
              executablePath: SYSTEM_CHROMIUM,
              args: [
                '--no-sandbox',
                '--headless',
                '--disable-gpu',
                '--disable-background-networking',
                '--disable-component-update',
                '--disable-sync',
                '--no-first-run',
              ],
            }
          : {},
      },
    },
  ],
  webServer: {
    // A production build on a fresh database (embedded, or a fresh one beside DATABASE_URL's), seeded.
    command: `npx tsx scripts/with-db.mts --fresh --seed -- npx next start -p ${PORT}`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      SEMEL_DATA_DIR: E2E_DATA_DIR,
      NEXTAUTH_URL: `http://127.0.0.1:${PORT}`,
      NEXTAUTH_SECRET: 'e2e-only-secret-e2e-only-secret-0123456789',
      APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      CRON_SECRET: 'e2e-cron-secret-0123456789',
      DEMO_PASSWORD: 'semel-demo',
      SANDBOX_ENABLED: 'true',
      // The outbound guard refuses loopback; connecting a "real" account to this server's own sandbox needs it allowed by name.
      OUTBOUND_ALLOWED_HOSTS: 'localhost',
      NEXT_TELEMETRY_DISABLED: '1',
      // Short enough that an ambiguous call and its reconciliation happen within a test.
      PUBLISH_CALL_TIMEOUT_MS: '2000',
      RECONCILE_ALLOWANCE_MS: '1000',
      RECONCILE_RECHECK_MS: '2000',
      // New inbox items within seconds (e2e/inbox).
      INBOX_READ_INTERVAL_MS: '5000',
      // Everything the server prints, for the log redaction spec (e2e/security/logs.spec.ts).
      LOG_FILE: E2E_LOG_FILE,
    },
  },
});
