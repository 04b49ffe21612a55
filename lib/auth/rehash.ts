import type { Executor } from '@/db/client';
import { replacePasswordHash } from '@/db/queries/users';
import { hashPassword, needsRehash } from './password';

/**
 * After a successful sign-in with a hash of an older (cheaper) cost: store a hash at today's cost.
 * Old hashes keep verifying until then; the update matches the verified hash, so a password changed
 * meanwhile is never overwritten.
 */
export async function upgradePasswordHash(
  db: Executor,
  params: { userId: string; password: string; stored: string },
): Promise<boolean> {
  if (!needsRehash(params.stored)) return false;
  await replacePasswordHash(db, {
    userId: params.userId,
    previousHash: params.stored,
    passwordHash: await hashPassword(params.password),
  });
  return true;
}
