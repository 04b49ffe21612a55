import { defineConfig } from 'drizzle-kit';

// Only `generate` is used: migrations are applied by db/migrate.ts (embedded or DATABASE_URL).
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./db/schema.ts', './sandbox/db/schema.ts'],
  out: './db/migrations',
  casing: 'snake_case',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost/semel' },
});
