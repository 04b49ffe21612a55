import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from '../client';

const dialect = new PgDialect({ casing: 'snake_case' });

/**
 * Runs one of the publishing path's statements as a named prepared statement: Postgres parses it once per connection,
 * plans its first five runs and then reuses a generic plan when it estimates that one as good. `db.execute` sends an
 * unnamed statement (or, without parameters, a simple query), parsed and planned again on every call: 1–3 ms of the
 * claim and mark-missed statements, the largest part of the due → claimed lateness at 500/s
 * (docs/publishing.md#lateness). Only for statements whose text never varies (lists go in as one jsonb parameter):
 * postgres.js keeps each named statement for the life of its connection. Inside a transaction, and on a pool made
 * without prepared statements (DATABASE_PREPARED_STATEMENTS=false, for a pooler in transaction mode), it runs as
 * `db.execute` does.
 */
export async function executePrepared(db: Executor, query: SQL): Promise<Iterable<unknown>> {
  if (!('$client' in db) || db.$client.options.prepare === false) return db.execute(query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  return db.$client.unsafe(text, params as never[], { prepare: true, simple: false } as { prepare: boolean });
}
