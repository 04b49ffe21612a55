import type { Database } from '@/db/client';
import type { Actor, Simulation } from './scheduler';

// Calls that start their work when called (a promise), not when awaited (a lazy query builder).
const EAGER = new Set<PropertyKey>(['execute', 'transaction', 'batch', 'refreshMaterializedView']);

/**
 * The actor's view of the real database: every call waits on the actor's gate first, so the scheduler
 * decides when each statement (or whole transaction) runs. A transaction is one step: nothing inside
 * it waits, so a crash never leaves one open holding locks (a killed process's transaction rolls back).
 */
export function gatedDatabase(db: Database, sim: Simulation, actor: Actor): Database {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'query') return lazy(value, sim, actor, 'query');
      // The pool's own client: executePrepared (db/queries/prepared.ts) sends the publishing path's statements
      // through its `unsafe`, so each of them waits on the gate like any `execute`.
      if (prop === '$client') return gatedClient(value as Database['$client'], sim, actor);
      if (typeof value !== 'function') return value;
      if (EAGER.has(prop))
        return (...args: unknown[]) =>
          sim.io(actor, String(prop), () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      return (...args: unknown[]) =>
        lazy((value as (...a: unknown[]) => unknown).apply(target, args), sim, actor, String(prop));
    },
  });
}

function gatedClient(client: Database['$client'], sim: Simulation, actor: Actor): Database['$client'] {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== 'unsafe' || typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        sim.io(
          actor,
          'execute',
          async () => await (value as (...a: unknown[]) => PromiseLike<unknown>).apply(target, args),
        );
    },
  });
}

/** A query builder (or drizzle's `db.query` tree): chained calls stay wrapped, and `then` runs the query behind the gate. */
function lazy(value: unknown, sim: Simulation, actor: Actor, label: string): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
  return new Proxy(value as object, {
    get(target, prop) {
      const member = Reflect.get(target, prop, target) as unknown;
      if (prop === 'then' && typeof member === 'function') {
        return (onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown) =>
          sim
            .io(
              actor,
              label,
              () =>
                new Promise((resolve, reject) =>
                  (member as PromiseLike<unknown>['then']).call(target, resolve, reject),
                ),
            )
            .then(onFulfilled, onRejected);
      }
      if (typeof member === 'function')
        return (...args: unknown[]) =>
          lazy((member as (...a: unknown[]) => unknown).apply(target, args), sim, actor, label);
      if (member !== null && typeof member === 'object' && label === 'query') return lazy(member, sim, actor, label);
      return member;
    },
  });
}
