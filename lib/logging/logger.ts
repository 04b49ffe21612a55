import pino from 'pino';

// Secrets never reach the log: these paths are censored wherever they appear.
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  redact: {
    paths: ['password', 'token', 'accessToken', 'authorization', 'credentials', '*.password', '*.token', '*.accessToken', '*.authorization', '*.credentials', 'headers.authorization'],
    censor: '[redacted]',
  },
});
