/** What a value becomes after JSON: dates turn into ISO strings. */
export type Json<T> = T extends Date
  ? string
  : T extends (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

/**
 * The shape a route handler sends. Server prefetch goes through it too, so the hydrated data and a
 * refetch from the route handler are the same shape (a Date on one side and a string on the other is a bug).
 */
export function toJson<T>(value: T): Json<T> {
  return JSON.parse(JSON.stringify(value)) as Json<T>;
}
