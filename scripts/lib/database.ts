import path from 'node:path';
import postgres from 'postgres';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@/db/embedded';

/** DATABASE_URL when set (any Postgres ≥ 15); otherwise the embedded Postgres under the data dir. */
export async function resolveDatabase(options: { fresh?: boolean } = {}): Promise<EmbeddedDatabase> {
  const url = process.env.DATABASE_URL;
  if (url && options.fresh)
    return { url: await recreateSiblingDatabase(url, 'e2e'), stop: async () => {}, owned: false };
  if (url) return { url, stop: async () => {}, owned: false };
  const dataDir = process.env.SEMEL_DATA_DIR ?? '.data';
  return startEmbeddedPostgres(path.join(dataDir, 'postgres'), options);
}

/** `--fresh` on a given server: a new database `<name>_<suffix>` beside DATABASE_URL's, never DATABASE_URL's own. */
export async function recreateSiblingDatabase(url: string, suffix: string): Promise<string> {
  const target = new URL(url);
  const name = `${target.pathname.slice(1) || 'postgres'}_${suffix}`.replace(/[^a-zA-Z0-9_]/g, '_');
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    await sql.unsafe(`create database "${name}"`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  target.pathname = `/${name}`;
  return target.toString();
}
