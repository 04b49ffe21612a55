// npm run bench:create [-- --posts 10000 --clients 32]
// 32 concurrent API clients create N posts through the real POST /api/v1/posts handler over HTTP, half of
// them retried with the same key; then the same load through a plain insert path (no idempotency).
// Every request must answer 201 (created, or the creation replayed): any other status or a network error is
// counted as an error, left out of the figures, reported by phase, and fails the bench.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { count, eq } from 'drizzle-orm';
import { createDatabase, getDb } from '@/db/client';
import { runMigrations } from '@/db/migrate';
import { createApiKey } from '@/db/queries/api-keys';
import { posts } from '@/db/schema';
import { makeAccount, makeWorkspace } from '@/testing/db/factories';
import { authenticateApiKey } from '@/lib/auth/api-key';
import { generateApiKey } from '@/lib/auth/api-key-token';
import { createPostResponse } from '@/app/api/v1/posts/http';
import { createPost } from '@/lib/posts/create';
import { createPostRequestSchema } from '@/lib/posts/schemas';
import { resolveDatabase } from './lib/database';

const { values } = parseArgs({
  options: { posts: { type: 'string', default: '10000' }, clients: { type: 'string', default: '32' } },
});
const N = Number(values.posts);
const CLIENTS = Number(values.clients);

process.env.SEMEL_DATA_DIR ??= '.data/bench';
// One key sends the whole load: lift the per-key rate limit for the benchmark.
process.env.API_RATE_LIMIT_PER_MINUTE ??= '1000000';
const database = await resolveDatabase({ fresh: true });
await runMigrations(database.url);
process.env.DATABASE_URL = database.url;
const { POST: createPostRoute } = await import('@/app/api/v1/posts/route');

const setup = createDatabase(database.url, { max: 2 });
const workspace = await makeWorkspace(setup.db, 'bench');
const accounts = [await makeAccount(setup.db, workspace.id), await makeAccount(setup.db, workspace.id)];
const key = generateApiKey();
await createApiKey(setup.db, { workspaceId: workspace.id, name: 'bench', prefix: key.prefix, hash: key.hash });

/** The comparison path: the same auth, validation and create operation, without the idempotency record. */
async function plainCreate(request: Request): Promise<Response> {
  const principal = (await authenticateApiKey(request))?.principal;
  if (!principal) return new Response('unauthorized', { status: 401 });
  const parsed = createPostRequestSchema.safeParse(await request.json());
  if (!parsed.success) return new Response('invalid', { status: 422 });
  const result = await createPost(getDb(), parsed.data, {
    workspaceId: principal.workspaceId,
    source: 'api',
    idempotencyKey: randomUUID(),
    actor: 'bench',
  });
  return createPostResponse(result);
}

const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const request = new Request(`http://bench${req.url}`, {
    method: req.method,
    headers: req.headers as Record<string, string>,
    body: Buffer.concat(chunks),
  });
  const response =
    req.url === '/plain' ? await plainCreate(request) : await createPostRoute(request, { params: Promise.resolve({}) });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

type Sample = { ms: number; status: number; replayed: boolean; error?: string };
type Load = { samples: Sample[]; seconds: number };
/** A create answers 201, and so does its replay (the stored response). */
const EXPECTED_STATUS = 201;

function sender(path: string) {
  return async (samples: Sample[], idempotencyKey: string, text: string) => {
    const started = performance.now();
    try {
      const res = await fetch(base + path, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key.token}`,
          'idempotency-key': idempotencyKey,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ text, accountIds: accounts.map((a) => a.id) }),
      });
      await res.arrayBuffer();
      samples.push({
        ms: performance.now() - started,
        status: res.status,
        replayed: res.headers.get('idempotent-replayed') === 'true',
      });
    } catch (error) {
      samples.push({ ms: performance.now() - started, status: 0, replayed: false, error: (error as Error).message });
    }
  };
}

/** `clients` workers send `jobs` (key, text) pairs as fast as they are answered. */
async function runLoad(
  path: string,
  jobs: { key: string; text: string; retry?: boolean }[],
  clients = CLIENTS,
): Promise<Load> {
  const send = sender(path);
  const samples: Sample[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        await send(samples, job.key, job.text);
        if (job.retry) await send(samples, job.key, job.text); // the client "lost" the response and retries
      }
    }),
  );
  return { samples, seconds: (performance.now() - started) / 1000 };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};
const fmt = (n: number) => n.toFixed(1);
const lat = (xs: Sample[]) =>
  `p50 ${fmt(
    pct(
      xs.map((s) => s.ms),
      50,
    ),
  )} ms, p99 ${fmt(
    pct(
      xs.map((s) => s.ms),
      99,
    ),
  )} ms`;
// Only expected answers are counted in the figures; every other one is an error, reported with its phase.
const answered = (load: Load) => load.samples.filter((s) => s.status === EXPECTED_STATUS);
const failures: string[] = [];
function errors(phase: string, load: Load) {
  const bad = load.samples.filter((s) => s.status !== EXPECTED_STATUS);
  if (bad.length === 0) return 'errors 0';
  const byStatus = new Map<string, number>();
  for (const s of bad) {
    const label = s.status ? String(s.status) : `no answer (${s.error})`;
    byStatus.set(label, (byStatus.get(label) ?? 0) + 1);
  }
  const summary = `${bad.length} (${[...byStatus].map(([status, n]) => `${status} ×${n}`).join(', ')})`;
  failures.push(`${phase}: ${summary}`);
  return `ERRORS ${summary}`;
}
const jobs = (prefix: string, n: number, retryEvery = 0) =>
  Array.from({ length: n }, (_, i) => ({
    key: randomUUID(),
    text: `${prefix} ${i}`,
    retry: retryEvery > 0 && i % retryEvery === 0,
  }));
const postCount = async () =>
  (await setup.db.select({ n: count() }).from(posts).where(eq(posts.workspaceId, workspace.id)))[0]!.n;

const warmUps = [
  await runLoad('/plain', jobs('warm-up plain', 500)),
  await runLoad('/api/v1/posts', jobs('warm-up idempotent', 500)),
];

const plain = await runLoad('/plain', jobs('plain', N));
const createJobs = jobs('idempotent', N);
const idem = await runLoad('/api/v1/posts', createJobs);
const replayJobs = createJobs.filter((_, i) => i % 2 === 0);
const replays = await runLoad('/api/v1/posts', replayJobs);
const idleReplays = await runLoad('/api/v1/posts', replayJobs.slice(0, 500), 1);
const before = await postCount();
const mixed = await runLoad('/api/v1/posts', jobs('mixed', N, 2));
const createdInMixed = (await postCount()) - before;

const plainRate = answered(plain).length / plain.seconds;
const idemRate = answered(idem).length / idem.seconds;
console.log(
  `bench:create — ${N} intents, ${CLIENTS} concurrent API clients over HTTP, real POST /api/v1/posts handler`,
);
console.log(
  `warm-up               : ${errors('warm-up (plain)', warmUps[0]!)} (plain), ${errors('warm-up (idempotent)', warmUps[1]!)} (idempotent)`,
);
console.log(
  `plain insert path     : ${fmt(plainRate)} requests/s; ${lat(answered(plain))}; ${errors('plain insert path', plain)}`,
);
console.log(
  `idempotent creation   : ${fmt(idemRate)} requests/s; ${lat(answered(idem))}; ${errors('idempotent creation', idem)}`,
);
console.log(`  = ${fmt((100 * idemRate) / plainRate)}% of the plain path's throughput (target ≥ 70%)`);
console.log(
  `replays under load    : ${fmt(answered(replays).length / replays.seconds)} requests/s; ${lat(answered(replays))}; all replayed: ${replays.samples.every((s) => s.replayed)}; ${errors('replays under load', replays)}`,
);
console.log(
  `replays, one client   : ${lat(answered(idleReplays))} (target p50 < 5 ms); ${errors('replays, one client', idleReplays)}`,
);
console.log(
  `mixed (half retried)  : ${fmt(answered(mixed).length / mixed.seconds)} requests/s; posts created vs intents: ${createdInMixed} / ${N} ${createdInMixed === N ? '(equal)' : '(MISMATCH)'}; ${errors('mixed', mixed)}`,
);
if (failures.length > 0) {
  console.error(
    `bench:create FAILED: requests answered other than ${EXPECTED_STATUS} (left out of the figures above):\n  ${failures.join('\n  ')}`,
  );
}

server.close();
await setup.close();
await database.stop();
process.exit(createdInMixed === N && failures.length === 0 ? 0 : 1);
