import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { addressListIssue } from './net/address-list';
import { providerEnum } from '@/db/schema';

/** Milliseconds, or JSON per provider ({"mastodon":60000,"x":60000}); see RECONCILE_ALLOWANCE_MS in .env.example. */
const PROVIDERS = providerEnum.enumValues;
const DEFAULT_ALLOWANCE_MS = 60_000;
const milliseconds = z.number().int().min(0).max(3_600_000, 'at most one hour');
const allowanceSchema = z
  .string()
  .optional()
  .transform((value, ctx): Record<(typeof PROVIDERS)[number], number> => {
    const defaults = Object.fromEntries(PROVIDERS.map((p) => [p, DEFAULT_ALLOWANCE_MS])) as Record<
      (typeof PROVIDERS)[number],
      number
    >;
    if (value === undefined) return defaults;
    if (/^\d+$/.test(value.trim())) {
      const ms = milliseconds.safeParse(Number(value));
      if (ms.success) return Object.fromEntries(PROVIDERS.map((p) => [p, ms.data])) as typeof defaults;
    } else {
      const parsed = z.partialRecord(z.enum(PROVIDERS), milliseconds).safeParse(parseJson(value));
      if (parsed.success) return { ...defaults, ...parsed.data };
    }
    ctx.addIssue({
      code: 'custom',
      message: 'milliseconds (e.g. 60000) or JSON per provider, e.g. {"mastodon":60000,"x":60000}',
    });
    return z.NEVER;
  });
/** The late-copy watch's delays after a republished delivery is sent: growing, at most 6, each at most 24 h. */
const DAY_MS = 86_400_000;
const watchDelaysSchema = z
  .string()
  .optional()
  .transform((value, ctx): number[] => {
    if (value === undefined || value.trim() === '') return [120_000, 600_000, 3_600_000];
    const delays = value.split(',').map((part) => Number(part.trim()));
    const valid =
      delays.length >= 1 &&
      delays.length <= 6 &&
      delays.every((d, i) => Number.isInteger(d) && d > 0 && d <= DAY_MS && (i === 0 || d > delays[i - 1]!));
    if (valid) return delays;
    ctx.addIssue({
      code: 'custom',
      message:
        'growing milliseconds, comma-separated, 1 to 6 of them, each at most 86400000 (e.g. 120000,600000,3600000)',
    });
    return z.NEVER;
  });
/** When a sent post's metrics are read after it was published: growing, 1 to 8 readings, each within a year. */
const readDelaysSchema = z
  .string()
  .optional()
  .transform((value, ctx): number[] => {
    if (value === undefined || value.trim() === '') return [3_600_000, 86_400_000, 604_800_000, 2_592_000_000];
    const delays = value.split(',').map((part) => Number(part.trim()));
    const valid =
      delays.length >= 1 &&
      delays.length <= 8 &&
      delays.every(
        (d, i) => Number.isInteger(d) && d >= 60_000 && d <= 365 * DAY_MS && (i === 0 || d > delays[i - 1]!),
      );
    if (valid) return delays;
    ctx.addIssue({
      code: 'custom',
      message:
        'growing milliseconds, comma-separated, 1 to 8 of them, each from 60000 to 31536000000 (e.g. 3600000,86400000,604800000,2592000000)',
    });
    return z.NEVER;
  });
const rateLimitsSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return {};
    const parsed = z
      .partialRecord(
        z.enum([...PROVIDERS, 'sandbox']),
        z.object({ max: z.number().int().min(1), windowSeconds: z.number().int().min(1) }),
      )
      .safeParse(parseJson(value));
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: 'JSON per provider, e.g. {"x":{"max":50,"windowSeconds":900}}' });
    return z.NEVER;
  });

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** A platform call must end, with room to record its outcome, before its claim's lease runs out. */
export const LEASE_MARGIN_MS = 2_000;

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

// Said both when a secret is missing (production) and when it is too weak.
const SECRET_HINT = {
  NEXTAUTH_SECRET: 'set NEXTAUTH_SECRET to at least 32 random characters (openssl rand -base64 32)',
  APP_ENCRYPTION_KEY: 'set APP_ENCRYPTION_KEY to 32 random bytes, base64 (openssl rand -base64 32)',
  CRON_SECRET: 'set CRON_SECRET to at least 16 random characters (openssl rand -base64 24)',
};

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A comma-separated list of IPs and CIDRs (and host names when allowed); blank: none. */
const addressList = (options: { hostNames: boolean }) =>
  z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      const issue = addressListIssue(value, options);
      if (issue) ctx.addIssue({ code: 'custom', message: issue });
    });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .optional(),
  // false: no named prepared statements, for a pooler in transaction mode (read by db/client.ts when it opens a pool).
  DATABASE_PREPARED_STATEMENTS: booleanFlag.optional(),
  SEMEL_DATA_DIR: z.string().default('.data'),
  // Uploaded images, stored by their SHA-256 (lib/media/storage.ts).
  MEDIA_DIR: z.string().default('.data/media'),
  // An S3-compatible bucket for the media instead of MEDIA_DIR (lib/media/s3-storage.ts): set MEDIA_S3_BUCKET to use it.
  MEDIA_S3_BUCKET: z.string().min(3).max(63).optional(),
  MEDIA_S3_ENDPOINT: z.url().optional(),
  MEDIA_S3_REGION: z.string().default('us-east-1'),
  MEDIA_S3_ACCESS_KEY_ID: z.string().optional(),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().optional(),
  MEDIA_S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "letters, digits and ! _ . * ' ( ) / - only")
    .default(''),
  MEDIA_S3_FORCE_PATH_STYLE: booleanFlag.optional(),
  // The video probe's binaries (lib/media/video.ts); unset: the ones shipped in @ffprobe-installer / @ffmpeg-installer.
  FFPROBE_PATH: z.string().optional(),
  FFMPEG_PATH: z.string().optional(),
  /** Bytes of uploaded images and videos one workspace may keep (default 1 GiB); past it an upload is refused with 422. */
  MEDIA_QUOTA_BYTES_PER_WORKSPACE: z.coerce
    .number()
    .int()
    .min(1)
    .default(1024 * 1024 * 1024),
  /** The largest video a resumable upload may declare (default 1 GiB); a larger Upload-Length is refused with 413. */
  MEDIA_VIDEO_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(1024 * 1024 * 1024),
  NEXTAUTH_SECRET: z.string({ error: SECRET_HINT.NEXTAUTH_SECRET }).min(32, SECRET_HINT.NEXTAUTH_SECRET),
  NEXTAUTH_URL: z.url().optional(),
  /**
   * The origin short links are written with (`https://go.example.com` → `https://go.example.com/l/<code>`): a short
   * domain pointed at this app. Blank: NEXTAUTH_URL's origin (docs/content.md#short-links-and-utm).
   */
  SHORT_LINK_DOMAIN: z
    .url()
    .refine((v) => {
      const url = new URL(v);
      return /^https?:$/.test(url.protocol) && url.pathname === '/' && !url.search && !url.hash && !url.username;
    }, 'an origin such as https://go.example.com (http or https, no path, query or user)')
    .transform((v) => new URL(v).origin)
    .optional(),
  APP_ENCRYPTION_KEY: z
    .string({ error: SECRET_HINT.APP_ENCRYPTION_KEY })
    .refine((v) => Buffer.from(v, 'base64').length === 32, SECRET_HINT.APP_ENCRYPTION_KEY),
  CRON_SECRET: z.string({ error: SECRET_HINT.CRON_SECRET }).min(16, SECRET_HINT.CRON_SECRET),
  // Bearer token for GET /api/metrics; unset or blank turns the endpoint off (404).
  METRICS_TOKEN: z
    .string()
    .min(16, 'set METRICS_TOKEN to at least 16 random characters (openssl rand -base64 24), or leave it blank')
    .optional(),
  // `npm run worker` only (no web server): where it serves /api/metrics and /api/health/*; unset: no listener.
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  DEMO_PASSWORD: z.string().min(8).default('semel-demo'),
  SANDBOX_ENABLED: booleanFlag.optional(),
  // Where the sandbox sends its platforms' webhooks (TikTok's publish events), e.g. http://127.0.0.1:3000/api/webhooks;
  // each network's go to `<this>/<network>`. Unset: the sandbox sends none.
  SANDBOX_WEBHOOKS_URL: z.url().optional(),
  SCHEDULER_ENABLED: booleanFlag.default(true),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  // OAuth clients of the networks that connect through sign-in (blank: that network's real OAuth is off).
  X_CLIENT_ID: z.string().optional(),
  X_CLIENT_SECRET: z.string().optional(),
  LINKEDIN_CLIENT_ID: z.string().optional(),
  LINKEDIN_CLIENT_SECRET: z.string().optional(),
  THREADS_APP_ID: z.string().optional(),
  THREADS_APP_SECRET: z.string().optional(),
  INSTAGRAM_APP_ID: z.string().optional(),
  INSTAGRAM_APP_SECRET: z.string().optional(),
  // The token Meta's webhook subscription check sends back (GET /api/webhooks/instagram); blank: the check fails.
  INSTAGRAM_WEBHOOK_VERIFY_TOKEN: z.string().optional(),
  TIKTOK_CLIENT_KEY: z.string().optional(),
  TIKTOK_CLIENT_SECRET: z.string().optional(),
  FACEBOOK_APP_ID: z.string().optional(),
  FACEBOOK_APP_SECRET: z.string().optional(),
  // The token Meta's webhook subscription check sends back (GET /api/webhooks/facebook); blank: the check fails.
  FACEBOOK_WEBHOOK_VERIFY_TOKEN: z.string().optional(),
  // A Google Cloud OAuth client with the YouTube Data API v3 enabled (YouTube connect).
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GITHUB_ID: z.string().optional(),
  GITHUB_SECRET: z.string().optional(),
  // Optional single sign-on (lib/auth/oidc.ts): on only when all three are set; existing members only.
  OIDC_ISSUER: z
    .url()
    .refine(
      (v) => /^https:/.test(v) || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/.test(v),
      'an https:// issuer URL (http:// only for localhost), e.g. https://accounts.google.com',
    )
    .optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /** The sign-in button's label ("Sign in with …"). */
  OIDC_NAME: z.string().max(60).default('single sign-on'),
  // Notification emails (lib/notifications): smtp:// or smtps:// with user:password@ if needed; blank: emails are
  // stored and shown on the development Outbox page instead of being sent.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/\s]+/, 'an smtp:// or smtps:// URL, e.g. smtps://user:password@mail.example.com:465')
    .optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  OUTBOUND_ALLOWED_HOSTS: addressList({ hostNames: true }),
  TRUSTED_PROXIES: addressList({ hostNames: false }),
  /** npm start / npm run dev copy the server's whole output (stdout and stderr) to this file too. */
  LOG_FILE: z.string().optional(),
  // Sessions end after this long without a request, and this long after sign-in however active (lib/auth/session-user.ts).
  SESSION_IDLE_HOURS: z.coerce.number().int().min(1, 'at least 1 hour').max(8_760, 'at most a year').default(24),
  SESSION_MAX_DAYS: z.coerce.number().int().min(1, 'at least 1 day').max(365, 'at most a year').default(30),
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  // Publishing and reconciling tuning (docs/architecture.md#publishing, #reconciliation): blank means the default, like every variable here.
  PUBLISH_CALL_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100, 'at least 100 ms')
    .max(120_000, 'at most 120000 ms')
    .default(10_000),
  PUBLISH_LEASE_MS: z.coerce
    .number()
    .int()
    .min(1_000, 'at least 1000 ms')
    .max(3_600_000, 'at most one hour')
    .default(60_000),
  RECONCILE_RECHECK_MS: z.coerce.number().int().min(0).max(3_600_000, 'at most one hour').default(15_000),
  RECONCILE_ALLOWANCE_MS: allowanceSchema,
  RECONCILE_ALLOWANCE_CEILING_MS: z.coerce.number().int().min(0).max(3_600_000, 'at most one hour').default(900_000),
  RECONCILE_WATCH_DELAYS_MS: watchDelaysSchema,
  RATE_LIMITS: rateLimitsSchema,
  // The share of every account's rate-limit window kept for publishing and reconciliation: reads (metrics, the inbox)
  // spend only the rest (docs/architecture.md#read-budget). 1: reads never spend a limited account's budget.
  // When a sent post's public metrics are read, after it was published (docs/analytics.md#the-metrics-job).
  ANALYTICS_READ_DELAYS_MS: readDelaysSchema,
  READ_BUDGET_RESERVED_SHARE: z.coerce
    .number()
    .min(0.1, 'at least 0.1: publishing always keeps a share')
    .max(1, 'at most 1')
    .default(0.5),
  // The LinkedIn-Version header (YYYYMM); blank: the version the LinkedIn client is written against.
  LINKEDIN_API_VERSION: z
    .string()
    .regex(/^\d{6}(\.\d{2})?$/, 'a LinkedIn API version, YYYYMM (e.g. 202607)')
    .optional(),
  // How often each inbox stream of an account is read (docs/inbox.md#reading), within the read budget.
  INBOX_READ_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(5_000, 'at least 5000 (5 s)')
    .max(86_400_000, 'at most a day')
    .default(60_000),
});

/** The error's name (a string, so it survives minification): callers print the message and exit, no stack. */
export const INVALID_ENVIRONMENT = 'InvalidEnvironmentError';

export type Env = z.infer<typeof envSchema> & {
  sandboxEnabled: boolean;
  /** Single sign-on, when OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are all set. */
  oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | null;
  /** The media bucket, when MEDIA_S3_BUCKET is set; otherwise media live under MEDIA_DIR. */
  mediaS3: MediaS3Config | null;
};

export type MediaS3Config = {
  bucket: string;
  endpoint: string | null;
  region: string;
  /** Both or neither; neither: the SDK's own chain (instance role, AWS_* variables, shared config). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  prefix: string;
  forcePathStyle: boolean;
};

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
    const secrets = loadDevSecrets(raw.SEMEL_DATA_DIR ?? '.data');
    for (const name of GENERATED) raw[name] ??= secrets[name];
  }
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw Object.assign(new Error(`Invalid environment (see .env.example):\n${lines.join('\n')}`), {
      name: INVALID_ENVIRONMENT,
    });
  }
  const env = parsed.data;
  if (env.PUBLISH_CALL_TIMEOUT_MS + LEASE_MARGIN_MS >= env.PUBLISH_LEASE_MS) {
    const line = `  PUBLISH_CALL_TIMEOUT_MS: ${env.PUBLISH_CALL_TIMEOUT_MS} ms plus a ${LEASE_MARGIN_MS} ms margin must be shorter than PUBLISH_LEASE_MS (${env.PUBLISH_LEASE_MS} ms)`;
    throw Object.assign(new Error(`Invalid environment (see .env.example):\n${line}`), { name: INVALID_ENVIRONMENT });
  }
  const oidcSet = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET].filter(Boolean).length;
  if (oidcSet === 1 || oidcSet === 2) {
    const line = '  OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: set all three (single sign-on) or none';
    throw Object.assign(new Error(`Invalid environment (see .env.example):\n${line}`), { name: INVALID_ENVIRONMENT });
  }
  const oidc =
    env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
      ? {
          issuer: env.OIDC_ISSUER,
          clientId: env.OIDC_CLIENT_ID,
          clientSecret: env.OIDC_CLIENT_SECRET,
          name: env.OIDC_NAME,
        }
      : null;
  const s3Keys = [env.MEDIA_S3_ACCESS_KEY_ID, env.MEDIA_S3_SECRET_ACCESS_KEY].filter(Boolean).length;
  if (s3Keys === 1) {
    const line = '  MEDIA_S3_ACCESS_KEY_ID, MEDIA_S3_SECRET_ACCESS_KEY: set both or neither';
    throw Object.assign(new Error(`Invalid environment (see .env.example):\n${line}`), { name: INVALID_ENVIRONMENT });
  }
  const s3Settings = [
    'MEDIA_S3_ENDPOINT',
    'MEDIA_S3_REGION',
    'MEDIA_S3_ACCESS_KEY_ID',
    'MEDIA_S3_SECRET_ACCESS_KEY',
    'MEDIA_S3_PREFIX',
    'MEDIA_S3_FORCE_PATH_STYLE',
  ];
  if (!env.MEDIA_S3_BUCKET && s3Settings.some((name) => raw[name] !== undefined)) {
    const line = '  MEDIA_S3_BUCKET: required when any other MEDIA_S3_* variable is set';
    throw Object.assign(new Error(`Invalid environment (see .env.example):\n${line}`), { name: INVALID_ENVIRONMENT });
  }
  const mediaS3: MediaS3Config | null = env.MEDIA_S3_BUCKET
    ? {
        bucket: env.MEDIA_S3_BUCKET,
        endpoint: env.MEDIA_S3_ENDPOINT ?? null,
        region: env.MEDIA_S3_REGION,
        credentials:
          env.MEDIA_S3_ACCESS_KEY_ID && env.MEDIA_S3_SECRET_ACCESS_KEY
            ? { accessKeyId: env.MEDIA_S3_ACCESS_KEY_ID, secretAccessKey: env.MEDIA_S3_SECRET_ACCESS_KEY }
            : null,
        prefix: env.MEDIA_S3_PREFIX,
        // MinIO, Garage, s3rver and most self-hosted servers address buckets by path, not by subdomain.
        forcePathStyle: env.MEDIA_S3_FORCE_PATH_STYLE ?? Boolean(env.MEDIA_S3_ENDPOINT),
      }
    : null;
  return { ...env, sandboxEnabled: env.SANDBOX_ENABLED ?? env.NODE_ENV !== 'production', oidc, mediaS3 };
}

let cached: Env | undefined;

/** Validated environment, parsed once per process. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
