import { sql } from 'drizzle-orm';

/** A duration as a Postgres interval parameter. */
export const interval = (ms: number) => sql`${`${Math.max(0, Math.round(ms))} milliseconds`}::interval`;

/** Any value (a batch of rows, a list of ids) as one jsonb parameter, whatever its size. */
export const jsonb = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/** A list of uuids for `in (...)`, as one parameter. */
export const uuidList = (ids: string[]) => sql`(select jsonb_array_elements_text(${jsonb(ids)})::uuid)`;

/**
 * A list of uuids for `column = ${uuidAny(ids)}`, as one parameter. Unlike `in ${uuidList(ids)}`, the array is
 * computed once before the scan, so an index on the column serves it (an index condition, not a join after the scan).
 */
export const uuidAny = (ids: string[]) => sql`any(array(select jsonb_array_elements_text(${jsonb(ids)})::uuid))`;
