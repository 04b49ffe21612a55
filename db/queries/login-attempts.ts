import { eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../client';
import { loginAttempts } from '../schema';

export type LoginAttemptLimits = {
  perEmailAndAddress: number;
  perEmailAndNetwork: number;
  perAddress: number;
  perNetwork: number;
  /** Attempts without a known address share one bucket: refusing it across emails would refuse everyone. */
  acrossEmails: boolean;
};

export type TakenLoginAttempt = {
  /** Null when a limit was reached: nothing was recorded and the password must not be checked. */
  attemptId: number | null;
  failuresForEmail: number;
};

/** The lock that orders the attempts from one network (exported for the race test that holds it). */
export const networkLock = (network: string): SQL =>
  sql`select pg_advisory_xact_lock(hashtextextended(${network}, 5141))`;

/**
 * Takes one sign-in attempt: counts the failures in the window and records this attempt (as failed until
 * the password is verified) in ONE statement, under a lock per network held to the end of the transaction.
 * So parallel guesses from one network are counted one after another, each seeing every attempt before
 * it: the 11th of 25 parallel wrong passwords is refused, not checked. Past a limit nothing is recorded.
 */
export async function takeLoginAttempt(
  db: Executor,
  params: { email: string; ip: string; network: string; since: Date; limits: LoginAttemptLimits },
): Promise<TakenLoginAttempt> {
  const { ip, network, since, limits } = params;
  const email = params.email.toLowerCase();
  return db.transaction(async (tx) => {
    // The lock comes before the statement: its snapshot then includes every attempt taken before ours.
    await tx.execute(networkLock(network));
    const [row] = await tx.execute<{ attempt_id: string | null; email: number }>(sql`
      with prior as (
        select
          count(*) filter (where email = ${email} and ip = ${ip})::int as email_address,
          count(*) filter (where email = ${email} and network = ${network})::int as email_network,
          count(*) filter (where ip = ${ip})::int as address,
          count(*) filter (where network = ${network})::int as network,
          count(*) filter (where email = ${email})::int as email
        from login_attempts
        where (email = ${email} or network = ${network}) and not succeeded and created_at > ${since.toISOString()}
      ),
      taken as (
        insert into login_attempts (email, ip, network, succeeded)
        select ${email}, ${ip}, ${network}, false from prior
        where prior.email_address < ${limits.perEmailAndAddress}
          and prior.email_network < ${limits.perEmailAndNetwork}
          and (not ${limits.acrossEmails} or (prior.address < ${limits.perAddress} and prior.network < ${limits.perNetwork}))
        returning id
      )
      select (select id from taken) as attempt_id, prior.email from prior`);
    return { attemptId: row!.attempt_id === null ? null : Number(row!.attempt_id), failuresForEmail: row!.email };
  });
}

/** The password was right: this attempt stops counting as a failure. */
export async function markLoginAttemptSucceeded(db: Executor, params: { attemptId: number }) {
  await db.update(loginAttempts).set({ succeeded: true }).where(eq(loginAttempts.id, params.attemptId));
}
