import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from '../client';

const dialect = new PgDialect({ casing: 'snake_case' });

/**
 * Runs one of the publishing path's statements as a named prepared statement: Postgres parses and plans it once per
 * connection and reuses the plan. `db.execute` sends an unnamed statement (or, without parameters, a simple query),
 * which is parsed and planned again on every call: 1–3 ms of the claim and mark-missed statements, the largest part
 * of the due → claimed lateness at 500/s (docs/publishing.md#lateness). Only for statements whose text never varies
 * (lists go in as one jsonb parameter): postgres.js keeps each named statement for the life of its connection.
 * Inside a transaction it runs as `db.execute` does (drizzle's transaction has no handle on the pool's client).
 */
export async function executePrepared(db: Executor, query: SQL): Promise<Iterable<unknown>> {
  if (!('$client' in db)) return db.execute(query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  return db.$client.unsafe(text, params as never[], { prepare: true, simple: false } as { prepare: boolean });
}
