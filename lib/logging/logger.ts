import pino from 'pino';
import { logFile, logLevel } from './level';
import { serializeError } from './redact-error';

/**
 * Never in a log line, at any depth pino can match: secrets, and personal or customer content (post text,
 * emails, names of keys and hashes). Errors go through serializeError (redaction by shape).
 */
export const REDACTED_FIELDS = [
  'password', 'passwordHash', 'token', 'accessToken', 'refreshToken', 'authorization', 'cookie', 'credentials', 'credentialsEncrypted',
  'email', 'text', 'hash', 'key', 'apiKey', 'idempotencyKey', 'secret', 'query', 'params', 'parameters', 'args', 'body',
];

export const loggerOptions: pino.LoggerOptions = {
  serializers: { err: serializeError, error: serializeError },
  level: logLevel(process.env),
  redact: {
    paths: [...REDACTED_FIELDS, ...REDACTED_FIELDS.map((f) => `*.${f}`), 'headers.authorization', 'headers.cookie', 'req.headers.authorization', 'req.headers.cookie'],
    censor: '[redacted]',
  },
};

/** LOG_FILE (optional): also append every line to this file (used by the production-build log test). */
function destination(): pino.DestinationStream | undefined {
  const file = logFile(process.env);
  if (!file) return undefined;
  const level = loggerOptions.level as pino.Level;
  return pino.multistream([{ level, stream: process.stdout }, { level, stream: pino.destination({ dest: file, append: true, sync: true, mkdir: true }) }]);
}

export const logger = pino(loggerOptions, destination());
