import { readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';

let sql: postgres.Sql | undefined;

/** The database the e2e server uses (written by scripts/with-db.mts), for assertions on stored rows. */
export function e2eSql(): postgres.Sql {
  if (!sql) {
    const url = readFileSync(path.join(process.env.E2E_DATA_DIR ?? '.data/e2e', 'database-url'), 'utf8').trim();
    sql = postgres(url, { max: 4, onnotice: () => {} });
  }
  return sql;
}
