import postgres from 'postgres';

export function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(serverUrl: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function createTemplateDatabase(serverUrl: string, name: string): Promise<string> {
  await admin(serverUrl, async (sql) => {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    await sql.unsafe(`create database "${name}"`);
  });
  return withDatabaseName(serverUrl, name);
}

export async function cloneDatabase(serverUrl: string, template: string, name: string): Promise<string> {
  await admin(serverUrl, (sql) => sql.unsafe(`create database "${name}" template "${template}"`));
  return withDatabaseName(serverUrl, name);
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await admin(serverUrl, (sql) => sql.unsafe(`drop database if exists "${name}" with (force)`));
}
