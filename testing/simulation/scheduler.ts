import type { Scheduler } from 'fast-check';

/** One simulated process: its gates are numbered in order; at `crashAt` it stops for good (SIGKILL). */
export type Actor = {
  name: string;
  crashAt: number | null;
  gates: number;
  crashed: boolean;
  done: boolean;
  error: unknown;
  jumpsSeen: number;
};

type Deferred = { promise: Promise<void>; resolve: () => void };
const deferred = (): Deferred => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};
const never = () => new Promise<never>(() => {});
const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));
// The sandbox sleeps 0 ms in places (a processing delay of none): a timer turn lets those run too.
const timerTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The interleaving engine. Every I/O boundary (a database call, a platform step) first waits on a gate;
 * fast-check's scheduler releases one gate at a time, and only once nothing else is running on its own,
 * so a seed and a path give one order of events. Free mode (the drain after the scheduled phase) opens
 * every gate at once.
 */
export class Simulation {
  readonly actors: Actor[] = [];
  readonly trace: string[] = [];
  /** Time jumps so far (each one: every lease, call timeout, allowance and read lag has passed). */
  jumps = 0;
  free = false;
  /** Platform requests being handled (they may sleep on a real timer for 0 ms). */
  handling = 0;
  private inFlight = 0;
  private activity = 0;
  private idle: Deferred | null = null;
  private forceable = new Set<Deferred>();
  private jumpWaiters: { count: number; resolve: () => void }[] = [];

  constructor(private readonly s: Scheduler) {}

  actor(name: string, crashAt: number | null): Actor {
    const actor: Actor = { name, crashAt, gates: 0, crashed: false, done: false, error: null, jumpsSeen: 0 };
    this.actors.push(actor);
    return actor;
  }

  /** An await point of an actor: it may crash here, else waits for the scheduler. */
  gate(actor: Actor, label: string): Promise<void> {
    this.activity++;
    if (this.free) return Promise.resolve();
    actor.gates++;
    if (actor.crashAt !== null && actor.gates >= actor.crashAt) {
      if (!actor.crashed) this.trace.push(`${actor.name} ✝ crashed before ${label}`);
      actor.crashed = true;
      return never();
    }
    return this.s.schedule(Promise.resolve(), `${actor.name}: ${label}`).then(() => {
      this.trace.push(`${actor.name}: ${label}`);
    });
  }

  /**
   * A platform-side event (a commit, a post becoming visible, a client timer): the scheduler orders it,
   * and a time jump forces it (true when forced).
   */
  platformEvent(label: string): Promise<boolean> {
    this.activity++;
    if (this.free) return Promise.resolve(true);
    const forced = deferred();
    this.forceable.add(forced);
    return Promise.race([
      this.s.schedule(Promise.resolve(), `platform: ${label}`).then(() => false),
      forced.promise.then(() => true),
    ]).then((wasForced) => {
      this.forceable.delete(forced);
      if (!wasForced) this.trace.push(`platform: ${label}`);
      return wasForced;
    });
  }

  /** Waits for the next time jump (a platform that takes longer than our call timeout). */
  untilJump(): Promise<void> {
    this.activity++;
    if (this.free) return Promise.resolve();
    const d = deferred();
    this.forceable.add(d);
    return d.promise;
  }

  /**
   * Resolves once `count` time jumps have happened, in either phase: a write that the platform finishes past the
   * allowance waits for the drain's jumps too (where untilJump no longer waits).
   */
  untilJumps(count: number): Promise<void> {
    if (this.jumps >= count) return Promise.resolve();
    if (!this.free) return this.untilJump().then(() => this.untilJumps(count));
    return new Promise((resolve) => this.jumpWaiters.push({ count, resolve }));
  }

  /** Time passes beyond every lease, call timeout, processing allowance and read lag. */
  jump() {
    this.jumps++;
    const ready = this.jumpWaiters.filter((w) => w.count <= this.jumps);
    this.jumpWaiters = this.jumpWaiters.filter((w) => w.count > this.jumps);
    for (const w of ready) w.resolve();
    this.trace.push(`⏩ time jump #${this.jumps}`);
    const pending = [...this.forceable];
    this.forceable.clear();
    for (const p of pending) p.resolve();
  }

  /** Runs real I/O after the actor's gate, counted until it ends (so the driver waits for it). */
  async io<T>(actor: Actor, label: string, run: () => Promise<T>): Promise<T> {
    await this.gate(actor, label);
    return this.track(run()).finally(() => {
      actor.jumpsSeen = this.jumps;
    });
  }

  /** Counts work that finishes on its own (a query, a body read). */
  async track<T>(work: Promise<T>): Promise<T> {
    this.inFlight++;
    this.activity++;
    try {
      return await work;
    } finally {
      this.inFlight--;
      this.activity++;
      if (this.inFlight === 0) this.idle?.resolve();
    }
  }

  /** Until nothing runs on its own: every live actor waits at a gate, has crashed, or has finished. */
  private async settle() {
    for (;;) {
      const before = this.activity;
      while (this.inFlight > 0) {
        this.idle = deferred();
        await this.idle.promise;
      }
      await macrotask();
      if (this.handling > 0) await timerTurn();
      if (this.inFlight === 0 && this.activity === before) return;
    }
  }

  /** Releases gates one at a time, in the order fast-check draws, until none is left. */
  async drive(maxSteps: number) {
    for (let step = 0; step < maxSteps; step++) {
      await this.settle();
      if (this.s.count() === 0) return;
      await this.s.waitOne();
    }
    throw new Error(`the simulation did not finish within ${maxSteps} steps`);
  }

  /** Runs an actor's program, recording how it ended. */
  run(actor: Actor, program: () => Promise<unknown>) {
    void program().then(
      () => {
        actor.done = true;
      },
      (error: unknown) => {
        actor.done = true;
        actor.error = error;
        this.trace.push(`${actor.name} threw: ${(error as Error)?.message ?? String(error)}`);
      },
    );
  }
}
