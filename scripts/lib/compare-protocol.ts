// npm run bench:compare runs each publisher in a child process of its own, so that /proc measures its CPU alone and
// every side starts from a fresh process. The child prepares (connects, queues its jobs), says `ready`; the parent
// takes its snapshots and says `go`; the child publishes everything and says `done`; the parent snapshots again and
// says `exit`, and the child closes its connections (their backends then flush their statistics) and exits.
import { spawn } from 'node:child_process';
import { once } from 'node:events';

export type SemelSideConfig = { url: string; origin: string; encryptionKey: string; publishers: number };
export type GraphileSideConfig = {
  url: string;
  origin: string;
  encryptionKey: string;
  concurrency: number;
  /** localQueue (this many jobs fetched and locked per statement) and completeJobBatchDelay 0; else neither. */
  localQueueSize: number | null;
};

export type SideResult = {
  /** From `go` to the last outcome recorded (and, for graphile-worker, every job completed). */
  seconds: number;
  /** Statements the side's publisher sent to Postgres while publishing. */
  statements: number;
  sent: number;
  failed: number;
  /** Side-specific figures, printed as they are. */
  notes: Record<string, string | number>;
};

type ChildMessage = { type: 'ready'; notes: Record<string, string | number> } | { type: 'done'; result: SideResult };

/** In the child: prepare, then publish on `go`, then close on `exit`. The config comes as JSON in argv[2]. */
export async function serveSide<Config>(
  prepare: (config: Config) => Promise<{
    notes: Record<string, string | number>;
    publish: () => Promise<Omit<SideResult, 'seconds'>>;
    close: () => Promise<void>;
  }>,
) {
  const send = (message: ChildMessage) => process.send!(message);
  const side = await prepare(JSON.parse(process.argv[2]!) as Config);
  const commands = messages();
  send({ type: 'ready', notes: side.notes });
  await commands.next('go');
  const started = performance.now();
  const published = await side.publish();
  send({ type: 'done', result: { ...published, seconds: (performance.now() - started) / 1000 } });
  await commands.next('exit');
  await side.close();
  process.disconnect();
}

function messages() {
  const queue: string[] = [];
  let waiting: ((message: string) => void) | null = null;
  process.on('message', (message: string) => {
    if (waiting) waiting(message);
    else queue.push(message);
  });
  return {
    next: async (expected: string) => {
      const message = queue.shift() ?? (await new Promise<string>((resolve) => (waiting = resolve)));
      waiting = null;
      if (message !== expected) throw new Error(`expected ${expected}, got ${message}`);
    },
  };
}

/** In the parent: runs one side's child to the end; `around` is called with its pid when ready and when done. */
export async function runSide<Config>(
  entry: string,
  config: Config,
  around: { ready: (pid: number) => Promise<void>; done: (pid: number) => Promise<void> },
  options: { cpuProfDir?: string } = {},
): Promise<SideResult & { setup: Record<string, string | number> }> {
  const profile = options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', entry, JSON.stringify(config)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  process.on('exit', () => child.kill()); // a parent that fails leaves no publisher behind
  const next = (type: ChildMessage['type']) =>
    new Promise<ChildMessage>((resolve, reject) => {
      const onMessage = (message: ChildMessage) => {
        stop();
        if (message.type === type) resolve(message);
        else reject(new Error(`${entry}: expected ${type}, got ${message.type}`));
      };
      const onExit = (code: number | null) => {
        stop();
        reject(new Error(`${entry} exited (${code}) before ${type}`));
      };
      const stop = () => {
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
    });
  const ready = (await next('ready')) as Extract<ChildMessage, { type: 'ready' }>;
  await around.ready(child.pid!);
  child.send('go');
  const done = (await next('done')) as Extract<ChildMessage, { type: 'done' }>;
  await around.done(child.pid!);
  child.send('exit');
  const [code] = await exited;
  if (code !== 0) throw new Error(`${entry} exited with ${code}`);
  return { ...done.result, setup: ready.notes };
}
