// The first-run check's bookkeeping: each step printed with its duration and bounded by a timeout, a failure that
// names its phase and step, and the clean-ups (servers, files, databases) run in reverse order whatever happens.

export class StepFailure extends Error {
  constructor(
    readonly step: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** One phase of the check (development, production): its steps, timed from the phase's start. */
export class Phase {
  private readonly started = performance.now();
  /** Extra lines for a failure report (the server's output, the page the browser was on). */
  readonly context: (() => string | Promise<string>)[] = [];

  constructor(readonly name: string) {}

  async step<T>(what: string, run: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs / 1000} s`)), timeoutMs);
    });
    try {
      const result = await Promise.race([run(), timeout]);
      console.log(`first-run check [${this.name}] ✓ ${what} (${seconds(started)}; ${this.elapsed()} in all)`);
      return result;
    } catch (error) {
      throw new StepFailure(what, error);
    } finally {
      clearTimeout(timer);
    }
  }

  elapsed(): string {
    return seconds(this.started);
  }
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

const cleanups: { what: string; run: () => Promise<void> | void }[] = [];
// Bumped by each clean-up: a wait left running by a step that timed out stops instead of polling the next phase.
let generation = 0;
let running: Promise<void> | null = null;

/** Registers what undoes a step (stop a server, remove a file, drop a database); run by `cleanUp`, newest first. */
export function onCleanup(what: string, run: () => Promise<void> | void): void {
  cleanups.push({ what, run });
}

/**
 * Runs every registered clean-up once, newest first; one that fails is reported and the others still run. A second
 * call while one runs (a signal during the end of a phase) waits for the same run instead of racing it.
 */
export function cleanUp(): Promise<void> {
  running ??= (async () => {
    generation++;
    for (let next = cleanups.pop(); next; next = cleanups.pop()) {
      try {
        await next.run();
      } catch (error) {
        console.error(`first-run check: could not ${next.what}: ${(error as Error).message}`);
      }
    }
  })().finally(() => (running = null));
  return running;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retries `check` every second until it holds; a refused connection (the server still starting) is a retry. */
export async function until(check: () => Promise<boolean>, gone: () => string | null = () => null): Promise<void> {
  const started = generation;
  for (;;) {
    if (generation !== started) throw new Error('cleaned up while waiting');
    const why = gone();
    if (why) throw new Error(why);
    try {
      if (await check()) return;
    } catch (error) {
      if (!(error instanceof TypeError)) throw error; // fetch's TypeError: nothing listening yet
    }
    await sleep(1_000);
  }
}
