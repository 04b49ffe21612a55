import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { posts } from '@/db/schema';
import { makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { logLevel } from './level';
import { loggerOptions } from './logger';
import { redactConsoleErrors, serializeError } from './redact-error';

const { db } = await createTestDatabase();

const SECRET_TEXT = 'secret post text 7f3a';
const SECRET_EMAIL = 'someone.private@example.test';

/** A real failed query from real Postgres: the post text and the email are its parameters. */
async function realQueryError(): Promise<Error> {
  const workspace = await makeWorkspace(db);
  try {
    // Fails on the cast after both parameters were sent: the error carries them.
    await db.insert(posts).values({
      workspaceId: workspace.id,
      text: SECRET_TEXT,
      scheduledAt: new Date(),
      source: 'api',
      idempotencyKey: SECRET_EMAIL,
      createdByUserId: sql`${SECRET_EMAIL}::uuid`,
    });
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the insert to fail');
}

/** What a production build does to class names (and so to `constructor.name`). */
function minified(error: Error): Error {
  class a extends Error {}
  const copy = Object.assign(Object.create(a.prototype) as Error, error);
  Object.defineProperty(copy, 'message', { value: error.message });
  Object.defineProperty(copy, 'stack', { value: error.stack });
  Object.defineProperty(copy, 'cause', { value: (error as { cause?: unknown }).cause });
  return copy;
}

function captureLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ ...loggerOptions, level: 'trace' }, stream), lines };
}

describe('log redaction by shape', () => {
  it('the raw error does carry the secrets (so the tests below can fail)', async () => {
    const error = await realQueryError();
    expect(`${error.message} ${JSON.stringify(error)}`).toContain(SECRET_TEXT);
    expect(error.message).toContain(SECRET_EMAIL);
  });

  it.each([
    ['as thrown', (e: Error) => e],
    ['with a minified class name', minified],
    ['wrapped in another error', (e: Error) => new Error('create failed', { cause: e })],
  ])('a failed query %s is logged without its parameters, query or stack', async (_name, shape) => {
    const error = shape(await realQueryError());
    const { logger, lines } = captureLogger();
    logger.error({ err: error }, 'api handler failed');
    const out = lines.join('');
    expect(out).not.toContain(SECRET_TEXT);
    expect(out).not.toContain(SECRET_EMAIL);
    expect(out).not.toMatch(/insert into/i);
    const logged = JSON.parse(lines[0]!).err;
    expect(JSON.stringify(logged)).toMatch(/query failed: invalid input syntax for type uuid/);
    expect(JSON.stringify(logged)).toContain('22P02');
  });

  it('a postgres.js error with a value in its message and detail keeps neither', () => {
    const pgError = Object.assign(new Error(`duplicate key value violates unique constraint "users_email_uq"`), {
      code: '23505',
      constraint_name: 'users_email_uq',
      detail: `Key (email)=(${SECRET_EMAIL}) already exists.`,
    });
    Object.defineProperty(pgError, 'parameters', { value: [SECRET_EMAIL], enumerable: false });
    const out = JSON.stringify(serializeError(pgError));
    expect(out).not.toContain(SECRET_EMAIL);
    expect(out).toContain('users_email_uq');
  });

  it('fields named like secrets or personal data are censored at the top level and one level down', () => {
    const { logger, lines } = captureLogger();
    logger.info(
      {
        email: SECRET_EMAIL,
        text: SECRET_TEXT,
        user: { email: SECRET_EMAIL },
        post: { text: SECRET_TEXT },
        hash: 'abc123hash',
        key: 'sm_live_x',
        token: 't0k3n',
        userId: 'kept',
      },
      'event',
    );
    const out = lines.join('');
    for (const secret of [SECRET_EMAIL, SECRET_TEXT, 'abc123hash', 'sm_live_x', 't0k3n'])
      expect(out).not.toContain(secret);
    expect(out).toContain('kept');
  });

  it('ordinary errors keep their message and stack', () => {
    const out = serializeError(new TypeError('boom'));
    expect(out).toMatchObject({ type: 'TypeError', message: 'boom' });
    expect(String(out.stack)).toContain('redaction.test');
  });

  it('console output (what Next.js prints for an uncaught action error) is redacted too', async () => {
    const error = minified(await realQueryError());
    const printed: unknown[][] = [];
    const target = {
      error: (...a: unknown[]) => printed.push(a),
      warn: (...a: unknown[]) => printed.push(a),
      log: (...a: unknown[]) => printed.push(a),
      info: (...a: unknown[]) => printed.push(a),
    };
    redactConsoleErrors(target);
    target.error(error);
    target.error(`Error: ${error.message}`);
    const out = JSON.stringify(printed);
    expect(out).not.toContain(SECRET_TEXT);
    expect(out).not.toContain(SECRET_EMAIL);
    expect(out).toContain('22P02');
  });
});

describe('log level', () => {
  it.each([
    [{ LOG_LEVEL: '' }, 'info'],
    [{ LOG_LEVEL: '   ' }, 'info'],
    [{}, 'info'],
    [{ LOG_LEVEL: 'debug' }, 'debug'],
    [{ LOG_LEVEL: 'loud' }, 'info'],
    [{ LOG_LEVEL: '', NODE_ENV: 'test' }, 'silent'],
  ])('%j → %s, and pino accepts it', (source, expected) => {
    expect(logLevel(source)).toBe(expected);
    expect(() => pino({ level: logLevel(source) })).not.toThrow();
  });

  it('a blank LOG_LEVEL made pino throw (what crashed the instrumentation hook)', () => {
    expect(() => pino({ level: '' })).toThrow();
  });
});
