import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { createDatabase } from '@/db/client';
import journal from '@/db/migrations/meta/_journal.json';
import { createTemplateDatabase, dropDatabase } from '@/testing/db/admin';
import { createTestDatabase } from '@/testing/db/test-database';
import { readinessResponse } from '@/lib/health/readiness';
import { GET as live } from './live/route';
import { GET as ready } from './ready/route';
import { GET as health } from './route';

const database = await createTestDatabase();
process.env.DATABASE_URL = database.url; // the routes' getDb()
const tags = journal.entries.map((e) => e.tag);

describe('GET /api/health/live', () => {
  it('answers 200 without touching the database', async () => {
    const response = live();
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok' });
  });
});

describe('GET /api/health/ready and /api/health', () => {
  it('is ready when the database answers and every migration is applied', async () => {
    for (const route of [ready, health]) {
      const response = await route();
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        status: 'ok',
        database: { status: 'up' },
        migrations: { expected: tags.length, applied: tags.length },
      });
    }
  });

  it('answers 503 problem+json on a fresh empty database: every migration is missing', async () => {
    const { serverUrl } = inject('testDatabase');
    const name = `semel_empty_${randomBytes(6).toString('hex')}`;
    const empty = createDatabase(await createTemplateDatabase(serverUrl, name), { max: 1 });
    afterAll(async () => {
      await empty.close();
      await dropDatabase(serverUrl, name);
    });
    const response = await readinessResponse(empty.db);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({
      status: 503,
      title: 'Not Ready',
      database: { status: 'up' },
      migrations: { applied: 0, pending: tags },
    });
  });

  it('answers 503 when the database is unreachable', async () => {
    const nowhere = createDatabase('postgres://nobody@127.0.0.1:1/none', { max: 1 });
    try {
      const response = await readinessResponse(nowhere.db);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ database: { status: 'down' } });
    } finally {
      await nowhere.close();
    }
  });

  // Last: it leaves this file's database one migration behind.
  it('answers 503 naming the migration that is missing, on both paths', async () => {
    await database.db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
    );
    for (const route of [ready, health]) {
      const response = await route();
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body.migrations).toMatchObject({
        expected: tags.length,
        applied: tags.length - 1,
        pending: [tags.at(-1)],
      });
      expect(body.detail).toContain(tags.at(-1));
    }
  });
});
