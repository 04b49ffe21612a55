// Errors are redacted by shape, never by class name: a production build minifies class names, and a
// check like `constructor.name === 'DrizzleQueryError'` silently stops matching (docs/security.md#logs).

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;

/**
 * True for an error that carries a database query or its parameters: drizzle's DrizzleQueryError
 * (`query`, `params`) and postgres.js errors (`query`, `parameters`, `args`, non-enumerable).
 * Parameters hold post text, emails, key hashes and sealed credentials.
 */
export function carriesQuery(value: unknown): boolean {
  return isObject(value) && ('query' in value || 'params' in value || 'parameters' in value || 'args' in value);
}

/** A database error text without the value it quotes (`invalid input syntax for type uuid: "…"`). */
export function safeDatabaseMessage(message: unknown): string {
  if (typeof message !== 'string') return 'unknown';
  const cut = message.indexOf(': ');
  return (cut === -1 ? message : message.slice(0, cut)).slice(0, 200);
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function queryChain(error: Loose): Loose[] {
  const chain: Loose[] = [];
  for (let e: unknown = error; isObject(e) && chain.length < 5; e = e.cause) chain.push(e);
  return chain;
}

/**
 * What a log line may say about an error. Anything in a chain that carried a query is reduced to the
 * database's error code, constraint, table, column and its message without quoted values: no query text,
 * no parameters, no `detail` (it repeats the row's values), no stack (its first line is the message).
 */
export function serializeError(error: unknown): Loose {
  if (!isObject(error)) return { message: typeof error === 'string' ? error.slice(0, 500) : String(error) };
  const chain = queryChain(error);
  if (chain.some(carriesQuery)) {
    // The database's own error is the innermost with a code (postgres.js sets `code`, drizzle wraps it in `cause`).
    const db = [...chain].reverse().find((e) => typeof e.code === 'string') ?? chain.at(-1)!;
    return {
      type: 'QueryError',
      message: `query failed: ${safeDatabaseMessage(db.message)}`,
      code: str(db.code),
      constraint: str(db.constraint_name),
      table: str(db.table_name),
      column: str(db.column_name),
    };
  }
  return {
    type: str(error.name) ?? 'Error',
    message: str(error.message) ?? String(error),
    code: str(error.code),
    stack: str(error.stack),
    ...(isObject(error.cause) ? { cause: serializeError(error.cause) } : {}),
  };
}

/** A value about to reach console.*: query-carrying errors become their redacted form, `params:` lines go. */
export function redactForConsole(value: unknown): unknown {
  if (isObject(value) && queryChain(value).some(carriesQuery)) {
    const s = serializeError(value);
    return `${s.type}: ${s.message}${s.code ? ` (code ${s.code}${s.constraint ? `, constraint ${s.constraint}` : ''})` : ''}`;
  }
  if (typeof value === 'string' && value.includes('Failed query:'))
    return value.replace(/Failed query:[\s\S]*/, 'Failed query: [redacted]');
  return value;
}

let installed = false;

/**
 * Next.js logs uncaught errors of server actions and route handlers itself (console.error), printing their
 * own properties: a DrizzleQueryError's `params`. Installed once per server process (instrumentation.ts).
 */
export function redactConsoleErrors(target: Pick<Console, 'error' | 'warn' | 'log' | 'info'> = console): void {
  if (installed && target === console) return;
  if (target === console) installed = true;
  for (const method of ['error', 'warn', 'log', 'info'] as const) {
    const original = target[method].bind(target);
    target[method] = (...args: unknown[]) => original(...args.map(redactForConsole));
  }
}
