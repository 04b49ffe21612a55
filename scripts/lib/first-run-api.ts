// The first-run check's post: created through the public API with an API key, published by the server's own
// scheduler, and found exactly once on the sandbox network.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { until } from './first-run-steps';

export type ApiAccount = { id: string; provider: string; sandbox: boolean; handle: string };

const ENDED = ['failed', 'missed', 'needs_review', 'canceled'];

export class PublicApi {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  private get auth() {
    return { authorization: `Bearer ${this.token}` };
  }

  async accounts(): Promise<ApiAccount[]> {
    const response = await fetch(`${this.base}/api/v1/accounts`, { headers: this.auth });
    if (!response.ok) throw new Error(`GET /api/v1/accounts answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: ApiAccount[] }).data;
  }

  /** POST /api/v1/posts for now; returns the post's id and text. */
  async createPost(account: ApiAccount, label: string): Promise<{ id: string; text: string }> {
    const text = `First run (${label}) ${randomUUID().slice(0, 8)}`;
    const response = await fetch(`${this.base}/api/v1/posts`, {
      method: 'POST',
      headers: { ...this.auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ text, accountIds: [account.id] }),
    });
    if (response.status !== 201)
      throw new Error(`POST /api/v1/posts answered ${response.status}: ${await response.text()}`);
    return { id: ((await response.json()) as { id: string }).id, text };
  }

  /**
   * Polls the post until its delivery is `sent`; a delivery that ends otherwise fails at once. A slow first call
   * (next dev compiling the sandbox's route) makes the outcome unknown and reconciliation settles it: the wait
   * allows for that, and a timeout names the status it stayed in.
   */
  async untilSent(postId: string, gone: () => string | null, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    await until(async () => {
      const response = await fetch(`${this.base}/api/v1/posts/${postId}`, { headers: this.auth });
      if (!response.ok) throw new Error(`GET /api/v1/posts/${postId} answered ${response.status}`);
      const { deliveries } = (await response.json()) as { deliveries: { status: string }[] };
      const statuses = deliveries.map((d) => d.status);
      if (statuses.length === 0) throw new Error('the post has no delivery');
      if (statuses.some((s) => ENDED.includes(s))) throw new Error(`the delivery ended ${statuses.join(', ')}`);
      if (statuses.every((s) => s === 'sent')) return true;
      if (Date.now() > deadline)
        throw new Error(`the delivery is still ${statuses.join(', ')} after ${timeoutMs / 1000} s`);
      return false;
    }, gone);
  }
}

/** The server's database, as with-db wrote its URL into the data directory. */
function serverDatabase(dataDir: string) {
  const url = readFileSync(path.join(dataDir, 'database-url'), 'utf8').trim();
  return postgres(url, { max: 1, onnotice: () => {} });
}

/** Copies of `text` on the sandbox network, from its own tables: exactly one is what "a post goes out" means here. */
export async function sandboxCopies(dataDir: string, text: string): Promise<number> {
  const sql = serverDatabase(dataDir);
  try {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from sandbox.posts where text = ${text}`;
    return row!.n;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The post's deliveries and their attempts (the API shows statuses only), for a failure report. */
export async function describeAttempts(dataDir: string, postId: string): Promise<string> {
  const sql = serverDatabase(dataDir);
  try {
    const rows = await sql<{ status: string; outcome: string | null; http: number | null; detail: string | null }[]>`
      select d.status, a.outcome, a.http_status as http, a.detail
      from deliveries d left join attempts a on a.delivery_id = d.id
      where d.post_id = ${postId} order by a.started_at`;
    const lines = rows.map(
      (r) => `delivery ${r.status}: attempt ${r.outcome ?? '-'} ${r.http ?? ''} ${r.detail ?? ''}`,
    );
    return `--- the post's attempts ---\n${lines.join('\n')}`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
