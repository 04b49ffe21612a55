/** The Postgres constraint a query failed on (a unique or check violation; drizzle wraps the driver's error in `cause`). */
export function violatedConstraint(error: unknown): string | null {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint_name } = e as { code?: string; constraint_name?: string };
    if (code === '23505' || code === '23514') return constraint_name ?? null;
  }
  return null;
}
