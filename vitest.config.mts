import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      'server-only': path.resolve(import.meta.dirname, 'testing/server-only.ts'),
    },
  },
  test: {
    include: [
      'app/**/*.test.ts',
      'components/**/*.test.ts',
      'db/**/*.test.ts',
      'lib/**/*.test.ts',
      'scripts/**/*.test.ts',
      'sandbox/**/*.test.ts',
      'testing/**/*.test.ts',
    ],
    environment: 'node',
    globalSetup: ['testing/db/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database (testing/db/test-database.ts), so files can run in parallel.
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine. The files wait on
    // Postgres, sockets and timers much of the time, so four overlap: the whole suite on the system Postgres took
    // 464 s with 4 workers against about 600 s with the default here (docs/testing.md#time).
    maxWorkers: 4,
  },
});
