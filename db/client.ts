import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema';

/**
 * Session settings of every connection the app opens. JIT off: Postgres compiles a statement to machine code once its
 * estimated cost passes jit_above_cost, which a stale estimate reaches after a bulk insert; the publisher's
 * short statements then paid ~40 ms of compilation each (a 45 ms mark-missed pass that runs in 3 ms without it), the
 * largest part of the due → sent lateness at 500/s (docs/publishing.md#lateness). No query here runs long enough to gain.
 */
export const CONNECTION_SETTINGS = { application_name: 'semel', jit: 'off' } as const;

/**
 * DATABASE_PREPARED_STATEMENTS=false: no named prepared statements (db/queries/prepared.ts), for a pooler in
 * transaction mode that cannot keep them (PgBouncer before 1.21 or without max_prepared_statements).
 */
const preparedStatements = () => !['false', '0'].includes(process.env.DATABASE_PREPARED_STATEMENTS ?? '');

export function createDatabase(url: string, options: { max?: number } = {}) {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: CONNECTION_SETTINGS,
    prepare: preparedStatements(),
  });
  const db = drizzle(sql, { schema, casing: 'snake_case' });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

export type Database = ReturnType<typeof createDatabase>['db'];
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Queries accept either the pool or an open transaction. */
export type Executor = Database | Transaction;

type Holder = { semelDb?: ReturnType<typeof createDatabase> };
const holder = globalThis as Holder;

/** The one pool per process (kept on globalThis so dev hot reloads do not open another). */
export function getDb(): Database {
  return getPool().db;
}

/** The raw postgres.js client of the same pool (LISTEN/NOTIFY). */
export function getSql() {
  return getPool().sql;
}

function getPool() {
  if (!holder.semelDb) {
    const url = process.env.DATABASE_URL;
    if (!url)
      throw new Error(
        'DATABASE_URL is not set: start the app with `npm run dev` / `npm start`, which start the embedded Postgres.',
      );
    holder.semelDb = createDatabase(url);
  }
  return holder.semelDb;
}
