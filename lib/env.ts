import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { addressListIssue } from './net/address-list';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

// Said both when a secret is missing (production) and when it is too weak.
const SECRET_HINT = {
  NEXTAUTH_SECRET: 'set NEXTAUTH_SECRET to at least 32 random characters (openssl rand -base64 32)',
  APP_ENCRYPTION_KEY: 'set APP_ENCRYPTION_KEY to 32 random bytes, base64 (openssl rand -base64 32)',
  CRON_SECRET: 'set CRON_SECRET to at least 16 random characters (openssl rand -base64 24)',
};

/** A comma-separated list of IPs and CIDRs (and host names when allowed); blank: none. */
const addressList = (options: { hostNames: boolean }) =>
  z.string().optional().superRefine((value, ctx) => {
    const issue = addressListIssue(value, options);
    if (issue) ctx.addIssue({ code: 'custom', message: issue });
  });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .optional(),
  POSTONCE_DATA_DIR: z.string().default('.data'),
  NEXTAUTH_SECRET: z.string({ error: SECRET_HINT.NEXTAUTH_SECRET }).min(32, SECRET_HINT.NEXTAUTH_SECRET),
  NEXTAUTH_URL: z.url().optional(),
  APP_ENCRYPTION_KEY: z
    .string({ error: SECRET_HINT.APP_ENCRYPTION_KEY })
    .refine((v) => Buffer.from(v, 'base64').length === 32, SECRET_HINT.APP_ENCRYPTION_KEY),
  CRON_SECRET: z.string({ error: SECRET_HINT.CRON_SECRET }).min(16, SECRET_HINT.CRON_SECRET),
  DEMO_PASSWORD: z.string().min(8).default('postonce-demo'),
  SANDBOX_ENABLED: booleanFlag.optional(),
  SCHEDULER_ENABLED: booleanFlag.default(true),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  GITHUB_ID: z.string().optional(),
  GITHUB_SECRET: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OUTBOUND_ALLOWED_HOSTS: addressList({ hostNames: true }),
  TRUSTED_PROXIES: addressList({ hostNames: false }),
});

export type Env = z.infer<typeof envSchema> & { sandboxEnabled: boolean };

const GENERATED = ['NEXTAUTH_SECRET', 'APP_ENCRYPTION_KEY', 'CRON_SECRET'] as const;

/** Development only: missing secrets are generated once into the data dir (gitignored) and reused. */
export function loadDevSecrets(dataDir: string): Record<(typeof GENERATED)[number], string> {
  const file = path.resolve(dataDir, 'secrets.json');
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  let changed = false;
  for (const name of GENERATED) {
    if (!stored[name]) {
      stored[name] = randomBytes(32).toString('base64');
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2));
    chmodSync(file, 0o600);
  }
  return stored as Record<(typeof GENERATED)[number], string>;
}

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const raw: Record<string, string | undefined> = { ...source };
  for (const key of Object.keys(raw)) if (raw[key] === '') delete raw[key];
  if (raw.NODE_ENV !== 'production') {
    const secrets = loadDevSecrets(raw.POSTONCE_DATA_DIR ?? '.data');
    for (const name of GENERATED) raw[name] ??= secrets[name];
  }
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment (see .env.example):\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  return { ...env, sandboxEnabled: env.SANDBOX_ENABLED ?? env.NODE_ENV !== 'production' };
}

let cached: Env | undefined;

/** Validated environment, parsed once per process. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
