import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv as parseProcessEnv } from './env';
import { allowanceFor } from '@/lib/reconcile/allowance-map';

/** Plain objects stand in for process.env (whose type insists on NODE_ENV). */
const parseEnv = (source: Record<string, string | undefined>) => parseProcessEnv(source as NodeJS.ProcessEnv);

const dirs: string[] = [];
function tmpDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'semel-env-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const productionSecrets = {
  NEXTAUTH_SECRET: 'p'.repeat(40),
  APP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  CRON_SECRET: 'c'.repeat(24),
};

function parseError(source: Record<string, string | undefined>): string {
  try {
    parseEnv(source);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected parseEnv to throw');
}

describe('parseEnv in production', () => {
  it('requires every secret and names each missing variable', () => {
    const message = parseError({ NODE_ENV: 'production', SEMEL_DATA_DIR: tmpDataDir() });
    expect(message).toContain('.env.example');
    expect(message).toMatch(/NEXTAUTH_SECRET: set NEXTAUTH_SECRET to at least 32 random characters/);
    expect(message).toMatch(/APP_ENCRYPTION_KEY: set APP_ENCRYPTION_KEY to 32 random bytes, base64/);
    expect(message).toMatch(/CRON_SECRET: set CRON_SECRET to at least 16 random characters/);
  });

  it('treats empty values (as copied from .env.example) as missing', () => {
    const message = parseError({
      NODE_ENV: 'production',
      NEXTAUTH_SECRET: '',
      APP_ENCRYPTION_KEY: '',
      CRON_SECRET: '',
    });
    expect(message).toMatch(/NEXTAUTH_SECRET/);
  });

  it('says what to set when a secret is too weak', () => {
    const message = parseError({
      NODE_ENV: 'production',
      ...productionSecrets,
      NEXTAUTH_SECRET: 'short',
      APP_ENCRYPTION_KEY: 'dG9vIHNob3J0',
    });
    expect(message).toMatch(/NEXTAUTH_SECRET: set NEXTAUTH_SECRET to at least 32 random characters/);
    expect(message).toMatch(/APP_ENCRYPTION_KEY: set APP_ENCRYPTION_KEY to 32 random bytes, base64/);
    expect(message).not.toMatch(/CRON_SECRET/);
  });

  it('does not generate secrets into the data dir', () => {
    const dir = tmpDataDir();
    parseError({ NODE_ENV: 'production', SEMEL_DATA_DIR: dir });
    expect(() => statSync(path.join(dir, 'secrets.json'))).toThrow();
  });

  it('names other invalid variables too', () => {
    expect(parseError({ NODE_ENV: 'production', ...productionSecrets, DATABASE_URL: 'mysql://x' })).toMatch(
      /DATABASE_URL: must be a postgres:\/\/ connection string/,
    );
    expect(parseError({ NODE_ENV: 'production', ...productionSecrets, PORT: 'eighty' })).toMatch(/PORT/);
    expect(parseError({ NODE_ENV: 'production', ...productionSecrets, SANDBOX_ENABLED: 'yes' })).toMatch(
      /SANDBOX_ENABLED/,
    );
  });

  it('accepts complete settings, with defaults for the rest', () => {
    const env = parseEnv({ NODE_ENV: 'production', ...productionSecrets });
    expect(env).toMatchObject({
      ...productionSecrets,
      DEMO_PASSWORD: 'semel-demo',
      PORT: 3000,
      SCHEDULER_ENABLED: true,
      SEMEL_DATA_DIR: '.data',
    });
  });
});

describe('parseEnv in development', () => {
  it('generates missing secrets once into the data dir and reuses them', () => {
    const dir = tmpDataDir();
    const first = parseEnv({ NODE_ENV: 'development', SEMEL_DATA_DIR: dir });
    expect(first.NEXTAUTH_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(first.APP_ENCRYPTION_KEY, 'base64')).toHaveLength(32);
    expect(first.CRON_SECRET.length).toBeGreaterThanOrEqual(16);

    const file = path.join(dir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      NEXTAUTH_SECRET: first.NEXTAUTH_SECRET,
      APP_ENCRYPTION_KEY: first.APP_ENCRYPTION_KEY,
      CRON_SECRET: first.CRON_SECRET,
    });

    const second = parseEnv({ NODE_ENV: 'development', SEMEL_DATA_DIR: dir });
    expect(second.NEXTAUTH_SECRET).toBe(first.NEXTAUTH_SECRET);
    expect(second.APP_ENCRYPTION_KEY).toBe(first.APP_ENCRYPTION_KEY);
    expect(second.CRON_SECRET).toBe(first.CRON_SECRET);
  });

  it('uses NODE_ENV=development when NODE_ENV is unset', () => {
    const env = parseEnv({ SEMEL_DATA_DIR: tmpDataDir() });
    expect(env.NODE_ENV).toBe('development');
  });

  it('prefers secrets that are set over generated ones', () => {
    const dir = tmpDataDir();
    const env = parseEnv({ NODE_ENV: 'development', SEMEL_DATA_DIR: dir, ...productionSecrets });
    expect(env.NEXTAUTH_SECRET).toBe(productionSecrets.NEXTAUTH_SECRET);
    expect(env.APP_ENCRYPTION_KEY).toBe(productionSecrets.APP_ENCRYPTION_KEY);
  });

  it('different data dirs get different secrets', () => {
    const a = parseEnv({ NODE_ENV: 'development', SEMEL_DATA_DIR: tmpDataDir() });
    const b = parseEnv({ NODE_ENV: 'development', SEMEL_DATA_DIR: tmpDataDir() });
    expect(a.NEXTAUTH_SECRET).not.toBe(b.NEXTAUTH_SECRET);
  });
});

describe('sandboxEnabled', () => {
  it('is on by default in development and tests', () => {
    expect(parseEnv({ NODE_ENV: 'development', SEMEL_DATA_DIR: tmpDataDir() }).sandboxEnabled).toBe(true);
    expect(parseEnv({ NODE_ENV: 'test', SEMEL_DATA_DIR: tmpDataDir() }).sandboxEnabled).toBe(true);
  });

  it('is off by default in production, on only with SANDBOX_ENABLED=true', () => {
    expect(parseEnv({ NODE_ENV: 'production', ...productionSecrets }).sandboxEnabled).toBe(false);
    expect(parseEnv({ NODE_ENV: 'production', ...productionSecrets, SANDBOX_ENABLED: 'true' }).sandboxEnabled).toBe(
      true,
    );
    expect(parseEnv({ NODE_ENV: 'production', ...productionSecrets, SANDBOX_ENABLED: 'false' }).sandboxEnabled).toBe(
      false,
    );
  });

  it('can be switched off in development', () => {
    expect(
      parseEnv({ NODE_ENV: 'development', SEMEL_DATA_DIR: tmpDataDir(), SANDBOX_ENABLED: 'false' }).sandboxEnabled,
    ).toBe(false);
  });
});

describe('publishing and reconciling tuning', () => {
  const base = { NODE_ENV: 'production', ...productionSecrets };

  it('blank values (as copied from .env.example) mean the defaults, never 0', () => {
    const env = parseEnv({
      ...base,
      PUBLISH_CALL_TIMEOUT_MS: '',
      PUBLISH_LEASE_MS: '',
      RECONCILE_RECHECK_MS: '',
      RECONCILE_ALLOWANCE_MS: '',
      RATE_LIMITS: '',
    });
    expect(env).toMatchObject({
      PUBLISH_CALL_TIMEOUT_MS: 10_000,
      PUBLISH_LEASE_MS: 60_000,
      RECONCILE_RECHECK_MS: 15_000,
      RECONCILE_ALLOWANCE_MS: allowanceFor(60_000),
      RATE_LIMITS: {},
    });
  });

  it('takes the processing allowance as one number or JSON per provider', () => {
    expect(parseEnv({ ...base, RECONCILE_ALLOWANCE_MS: '5000' }).RECONCILE_ALLOWANCE_MS).toEqual({
      x: 5_000,
      mastodon: 5_000,
      bluesky: 5_000,
      linkedin: 5_000,
      threads: 5_000,
      instagram: 5_000,
      tiktok: 5_000,
      facebook: 5_000,
      youtube: 5_000,
    });
    expect(parseEnv({ ...base, RECONCILE_ALLOWANCE_MS: '{"mastodon":90000}' }).RECONCILE_ALLOWANCE_MS).toEqual({
      x: 60_000,
      mastodon: 90_000,
      bluesky: 60_000,
      linkedin: 60_000,
      threads: 60_000,
      instagram: 60_000,
      tiktok: 60_000,
      facebook: 60_000,
      youtube: 60_000,
    });
    expect(parseError({ ...base, RECONCILE_ALLOWANCE_MS: '{"myspace":1}' })).toMatch(
      /RECONCILE_ALLOWANCE_MS: milliseconds/,
    );
    expect(parseError({ ...base, RECONCILE_ALLOWANCE_MS: 'soon' })).toMatch(/RECONCILE_ALLOWANCE_MS/);
  });

  it('takes the late-copy watch delays as growing milliseconds, at most 6, each at most 24 h; and the ceiling', () => {
    const env = parseEnv({ ...base, RECONCILE_WATCH_DELAYS_MS: '', RECONCILE_ALLOWANCE_CEILING_MS: '' });
    expect(env.RECONCILE_WATCH_DELAYS_MS).toEqual([120_000, 600_000, 3_600_000]);
    expect(env.RECONCILE_ALLOWANCE_CEILING_MS).toBe(900_000);
    expect(parseEnv({ ...base, RECONCILE_WATCH_DELAYS_MS: '3000, 8000' }).RECONCILE_WATCH_DELAYS_MS).toEqual([
      3_000, 8_000,
    ]);
    for (const bad of ['8000,3000', '1,2,3,4,5,6,7', '86400001', 'soon', '0'])
      expect(parseError({ ...base, RECONCILE_WATCH_DELAYS_MS: bad }), bad).toMatch(
        /RECONCILE_WATCH_DELAYS_MS: growing/,
      );
    expect(parseError({ ...base, RECONCILE_ALLOWANCE_CEILING_MS: '3600001' })).toMatch(
      /RECONCILE_ALLOWANCE_CEILING_MS: at most one hour/,
    );
  });

  it('names invalid values', () => {
    expect(parseError({ ...base, PUBLISH_CALL_TIMEOUT_MS: 'ten' })).toMatch(/PUBLISH_CALL_TIMEOUT_MS/);
    expect(parseError({ ...base, PUBLISH_CALL_TIMEOUT_MS: '0' })).toMatch(/PUBLISH_CALL_TIMEOUT_MS: at least 100 ms/);
    expect(parseError({ ...base, RATE_LIMITS: '{"x":{"max":0}}' })).toMatch(/RATE_LIMITS: JSON per provider/);
  });

  it('refuses a call timeout that does not end well inside the claim lease', () => {
    expect(parseError({ ...base, PUBLISH_CALL_TIMEOUT_MS: '59000' })).toMatch(
      /PUBLISH_CALL_TIMEOUT_MS: 59000 ms plus a 2000 ms margin must be shorter than PUBLISH_LEASE_MS \(60000 ms\)/,
    );
    expect(parseEnv({ ...base, PUBLISH_CALL_TIMEOUT_MS: '1500', PUBLISH_LEASE_MS: '8000' })).toMatchObject({
      PUBLISH_CALL_TIMEOUT_MS: 1_500,
      PUBLISH_LEASE_MS: 8_000,
    });
  });
});

describe('METRICS_TOKEN', () => {
  it('is off (undefined) when unset or blank, as copied from .env.example', () => {
    expect(parseEnv({ SEMEL_DATA_DIR: tmpDataDir() }).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({ SEMEL_DATA_DIR: tmpDataDir(), METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
  });

  it('is kept when long enough, and named when too short', () => {
    expect(parseEnv({ SEMEL_DATA_DIR: tmpDataDir(), METRICS_TOKEN: 'm'.repeat(16) }).METRICS_TOKEN).toBe(
      'm'.repeat(16),
    );
    expect(parseError({ SEMEL_DATA_DIR: tmpDataDir(), METRICS_TOKEN: 'short' })).toMatch(
      /METRICS_TOKEN: set METRICS_TOKEN to at least 16/,
    );
  });
});

describe('SMTP_URL', () => {
  it('is unset when blank (emails go to the Outbox page), kept when smtp:// or smtps://', () => {
    expect(parseEnv({ SEMEL_DATA_DIR: tmpDataDir(), SMTP_URL: '' }).SMTP_URL).toBeUndefined();
    const url = 'smtps://user:pass@mail.example.com:465';
    expect(parseEnv({ SEMEL_DATA_DIR: tmpDataDir(), SMTP_URL: url }).SMTP_URL).toBe(url);
  });

  it('names anything else', () => {
    expect(parseError({ SEMEL_DATA_DIR: tmpDataDir(), SMTP_URL: 'https://mail.example.com' })).toMatch(
      /SMTP_URL: an smtp:\/\/ or smtps:\/\/ URL/,
    );
  });
});

describe('session lifetimes', () => {
  const base = { NODE_ENV: 'production', ...productionSecrets };

  it('blank means 24 hours idle and 30 days absolute; whole numbers are taken', () => {
    expect(parseEnv({ ...base, SESSION_IDLE_HOURS: '', SESSION_MAX_DAYS: '' })).toMatchObject({
      SESSION_IDLE_HOURS: 24,
      SESSION_MAX_DAYS: 30,
    });
    expect(parseEnv({ ...base, SESSION_IDLE_HOURS: '8', SESSION_MAX_DAYS: '7' })).toMatchObject({
      SESSION_IDLE_HOURS: 8,
      SESSION_MAX_DAYS: 7,
    });
  });

  it.each([
    ['SESSION_IDLE_HOURS', '0'],
    ['SESSION_IDLE_HOURS', '1.5'],
    ['SESSION_MAX_DAYS', '0'],
    ['SESSION_MAX_DAYS', '366'],
    ['SESSION_MAX_DAYS', 'forever'],
  ])('%s=%s is refused with its name', (name, value) => {
    expect(parseError({ ...base, [name]: value })).toContain(name);
  });
});

describe('OIDC single sign-on settings', () => {
  const oidc = (issuer: string) => ({
    NODE_ENV: 'production',
    SEMEL_DATA_DIR: tmpDataDir(),
    ...productionSecrets,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: 'semel',
    OIDC_CLIENT_SECRET: 'client-secret',
  });

  it('is off by default and on with all three set', () => {
    expect(parseEnv({ NODE_ENV: 'production', SEMEL_DATA_DIR: tmpDataDir(), ...productionSecrets }).oidc).toBeNull();
    expect(parseEnv(oidc('https://login.example.com/tenant')).oidc).toEqual({
      issuer: 'https://login.example.com/tenant',
      clientId: 'semel',
      clientSecret: 'client-secret',
      name: 'single sign-on',
    });
    expect(parseEnv(oidc('http://localhost:8080')).oidc?.issuer).toBe('http://localhost:8080');
  });

  it('refuses a plain-http issuer elsewhere than localhost, and a partial configuration', () => {
    expect(parseError(oidc('http://login.example.com'))).toMatch(/OIDC_ISSUER: an https:\/\/ issuer URL/);
    expect(parseError(oidc('http://localhost.example.com'))).toMatch(/OIDC_ISSUER: an https:\/\/ issuer URL/);
    expect(parseError({ ...oidc('https://login.example.com'), OIDC_CLIENT_SECRET: '' })).toMatch(
      /set all three \(single sign-on\) or none/,
    );
  });
});
