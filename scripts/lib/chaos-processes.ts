// The chaos run's children: web instances and workers, each in its own process group so that a kill takes
// everything it started, restarted after every kill (and after any exit the run did not cause).
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, openSync } from 'node:fs';

export type Role = 'web' | 'worker';

export type Managed = {
  name: string;
  role: Role;
  child: ChildProcess | null;
  /** Resolves when the (re)started process is ready (web: answers HTTP). */
  ready: Promise<void>;
  up: boolean;
  starts: number;
  kills: number;
  /** Exits the run did not cause (a crash): each is restarted too, and reported. */
  crashes: { at: Date; code: number | null; signal: string | null }[];
};

type Spec = {
  name: string;
  role: Role;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  readyUrl?: string;
};

export function createSupervisor() {
  const all: (Managed & { spec: Spec; killing: boolean })[] = [];
  let stopped = false;

  const launch = (m: (typeof all)[number]) => {
    const out = openSync(m.spec.logFile, 'a');
    const child = spawn(m.spec.command, m.spec.args, { env: m.spec.env, detached: true, stdio: ['ignore', out, out] });
    closeSync(out);
    m.child = child;
    m.starts++;
    appendFileSync(m.spec.logFile, `--- ${m.name}: start ${m.starts}, pid ${child.pid}, ${new Date().toISOString()}\n`);
    m.up = false;
    m.killing = false;
    m.ready = m.spec.readyUrl ? waitForHttp(m.spec.readyUrl, child) : Promise.resolve();
    m.ready.then(
      () => (m.up = m.child === child && child.exitCode === null && child.signalCode === null),
      () => {},
    );
    child.once('exit', (code, signal) => {
      if (m.child !== child) return;
      m.up = false;
      if (stopped) return;
      if (!m.killing) {
        const at = new Date();
        m.crashes.push({ at, code, signal });
        appendFileSync(
          m.spec.logFile,
          `--- ${m.name}: exited by itself (code ${code}, signal ${signal}), ${at.toISOString()}\n`,
        );
      }
      // Killed on purpose or crashed: it comes back, like a supervisor (systemd, Kubernetes) would bring it.
      setTimeout(() => !stopped && launch(m), 200 + Math.floor(Math.random() * 800));
    });
  };

  return {
    all: all as readonly Managed[],
    add(spec: Spec): Managed {
      const m = {
        name: spec.name,
        role: spec.role,
        child: null,
        ready: Promise.resolve(),
        up: false,
        starts: 0,
        kills: 0,
        crashes: [],
        spec,
        killing: false,
      };
      all.push(m);
      launch(m);
      return m;
    },
    /** SIGKILL to the whole process group: no cleanup, leases and started attempts are left behind. */
    kill(m: Managed) {
      const entry = all.find((e) => e === m)!;
      if (!entry.child?.pid || entry.child.exitCode !== null || entry.child.signalCode !== null) return false;
      entry.killing = true;
      entry.kills++;
      killGroup(entry.child.pid);
      return true;
    },
    /** Synchronous, so it also runs from process.on('exit'). */
    stopAll() {
      stopped = true;
      for (const m of all) if (m.child?.pid) killGroup(m.child.pid);
    },
    async waitAllExited(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (const m of all) {
        while (m.child && m.child.exitCode === null && m.child.signalCode === null && Date.now() < deadline)
          await sleep(50);
      }
    },
  };
}

function killGroup(pid: number) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

async function waitForHttp(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('exited before it was ready');
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.status < 500) return;
    } catch {
      /* not listening yet */
    }
    await sleep(250);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
