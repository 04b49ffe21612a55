import { sql } from 'drizzle-orm';
import { bigserial, bigint, check, doublePrecision, index, integer, pgSchema, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

/**
 * The built-in sandbox social network (DESIGN §8). It is a separate "platform": its own Postgres schema,
 * its own users and tokens, never joined into the product's tables except to find a workspace's accounts.
 */
export const sandbox = pgSchema('sandbox');

export const sandboxPlatformEnum = sandbox.enum('platform', ['x', 'mastodon']);
export const sandboxPostKindEnum = sandbox.enum('post_kind', ['post', 'reply', 'dm']);

const createdAt = () => timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow();

/** A user of the fake platform and the SHA-256 of its bearer token (the token itself is never stored here). */
export const sandboxAccounts = sandbox.table('accounts', {
  id: uuid().primaryKey().defaultRandom(),
  platform: sandboxPlatformEnum().notNull(),
  platformUserId: text().notNull(),
  handle: text().notNull(),
  displayName: text(),
  tokenHash: text().notNull(),
  createdAt: createdAt(),
}, (t) => [
  unique('sandbox_accounts_platform_user_uq').on(t.platform, t.platformUserId),
  unique('sandbox_accounts_token_uq').on(t.tokenHash),
]);
export type SandboxAccountRow = typeof sandboxAccounts.$inferSelect;

/** Everything ever published on the sandbox: tweets, statuses and DMs. Copies are counted here. */
export const sandboxPosts = sandbox.table('posts', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  accountId: uuid().notNull().references(() => sandboxAccounts.id, { onDelete: 'cascade' }),
  kind: sandboxPostKindEnum().notNull(),
  text: text().notNull(),
  inReplyToId: text(),
  recipientId: text(),
  idempotencyKey: text(),
  createdAt: createdAt(),
}, (t) => [
  index('sandbox_posts_account_created_idx').on(t.accountId, t.createdAt),
  // X's duplicate-content rule looks up identical text on one account.
  index('sandbox_posts_account_text_idx').on(t.accountId, sql`md5(${t.text})`),
]);
export type SandboxPostRow = typeof sandboxPosts.$inferSelect;

/**
 * Mastodon's Idempotency-Key (kept one hour): the unique constraint is the guard, so two parallel
 * requests with one key create one status; the row is written before the status in one transaction.
 */
export const sandboxIdempotencyKeys = sandbox.table('idempotency_keys', {
  accountId: uuid().notNull().references(() => sandboxAccounts.id, { onDelete: 'cascade' }),
  key: text().notNull(),
  postId: bigint({ mode: 'number' }).references(() => sandboxPosts.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
}, (t) => [unique('sandbox_idempotency_keys_account_key_uq').on(t.accountId, t.key)]);

/** Fault injection per account; rates are probabilities per write request. */
export const sandboxFaults = sandbox.table('faults', {
  accountId: uuid().primaryKey().references(() => sandboxAccounts.id, { onDelete: 'cascade' }),
  latencyMs: integer().notNull().default(0),
  timeoutBeforeCommit: doublePrecision().notNull().default(0),
  timeoutAfterCommit: doublePrecision().notNull().default(0),
  errorAfterCommit: doublePrecision().notNull().default(0),
  resetAfterCommit: doublePrecision().notNull().default(0),
  rateLimited: doublePrecision().notNull().default(0),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  check('sandbox_faults_latency_ck', sql`${t.latencyMs} between 0 and 60000`),
  check('sandbox_faults_rates_ck', sql`least(${t.timeoutBeforeCommit}, ${t.timeoutAfterCommit}, ${t.errorAfterCommit}, ${t.resetAfterCommit}, ${t.rateLimited}) >= 0
    and greatest(${t.timeoutBeforeCommit}, ${t.timeoutAfterCommit}, ${t.errorAfterCommit}, ${t.resetAfterCommit}, ${t.rateLimited}) <= 1`),
]);
export type SandboxFaultsRow = typeof sandboxFaults.$inferSelect;
