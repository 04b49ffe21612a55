/** A raw `db.execute` result as typed rows. */
export const rows = <T>(result: Iterable<unknown>) => [...result] as T[];
