import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '@/db/embedded';
import { runMigrations } from '@/db/migrate';
import { createTemplateDatabase, dropDatabase } from './admin';

/**
 * One Postgres server for the run: DATABASE_URL's when set, else a throwaway embedded one.
 * A migrated template database is made once; each test file clones it (CREATE DATABASE … TEMPLATE).
 */
export default async function setup(project: TestProject) {
  const dir = process.env.DATABASE_URL ? null : mkdtempSync(path.join(os.tmpdir(), 'semel-test-'));
  // The embedded server runs as the OS user `postgres` when we are root: it must be able to enter the dir.
  if (dir) chmodSync(dir, 0o755);
  const server = process.env.DATABASE_URL
    ? { url: process.env.DATABASE_URL, stop: async () => {} }
    : await startEmbeddedPostgres(path.join(dir!, 'pg'));
  const template = `semel_template_${process.pid}`;
  const templateUrl = await createTemplateDatabase(server.url, template);
  await runMigrations(templateUrl);
  project.provide('testDatabase', { serverUrl: server.url, template });
  return async () => {
    await dropDatabase(server.url, template);
    await server.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: { serverUrl: string; template: string };
  }
}
