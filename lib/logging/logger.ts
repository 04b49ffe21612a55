import pino from 'pino';
import { logLevel } from './level';
import { serializeError } from './redact-error';

/**
 * Never in a log line, at any depth pino can match: secrets, and personal or customer content (post text,
 * emails, names of keys and hashes). Errors go through serializeError (redaction by shape).
 */
export const REDACTED_FIELDS = [
  'password',
  'passwordHash',
  'token',
  'accessToken',
  'refreshToken',
  'authorization',
  'cookie',
  'credentials',
  'credentialsEncrypted',
  'email',
  'text',
  'hash',
  'key',
  'apiKey',
  'idempotencyKey',
  'secret',
  'query',
  'params',
  'parameters',
  'args',
  'body',
];

export const loggerOptions: pino.LoggerOptions = {
  serializers: { err: serializeError, error: serializeError },
  level: logLevel(process.env),
  redact: {
    paths: [
      ...REDACTED_FIELDS,
      ...REDACTED_FIELDS.map((f) => `*.${f}`),
      'headers.authorization',
      'headers.cookie',
      'req.headers.authorization',
      'req.headers.cookie',
    ],
    censor: '[redacted]',
  },
};

export const logger = pino(loggerOptions);
