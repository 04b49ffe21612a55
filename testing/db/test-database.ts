import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { createDatabase } from '@/db/client';
import { cloneDatabase, dropDatabase } from './admin';

let lastUrl: string | undefined;

/** The URL of the database this file created last (for code that uses the app's own getDb()). */
export function lastTestDatabaseUrl(): string {
  if (!lastUrl) throw new Error('createTestDatabase() has not run in this file');
  return lastUrl;
}

/**
 * A fresh, migrated database for this test file (real Postgres, never a mock), dropped afterwards.
 * `max` sets the pool size, so concurrency tests get real parallel connections.
 */
export async function createTestDatabase(options: { max?: number } = {}) {
  const { serverUrl, template } = inject('testDatabase');
  const name = `semel_test_${randomBytes(6).toString('hex')}`;
  const url = await cloneDatabase(serverUrl, template, name);
  const handle = createDatabase(url, { max: options.max ?? 20 });
  lastUrl = url;
  afterAll(async () => {
    await handle.close();
    await dropDatabase(serverUrl, name);
  });
  return { ...handle, url };
}
