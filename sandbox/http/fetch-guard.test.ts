import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchImageOverHttp, MAX_SANDBOX_IMAGE_BYTES } from './media';
import { startTestSandbox } from '@/testing/sandbox';

// Found in the second security review (docs/security.md#changed-in-the-second-security-review): the sandbox fetched any
// URL it was given (blind SSRF), and anyone could get a sandbox token.

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** An "internal service" on loopback that records every request and serves a PNG (or an endless body). */
const hits: string[] = [];
let streamed = 0;
const internal = http.createServer((req, res) => {
  hits.push(req.url ?? '');
  if (req.url?.startsWith('/api/media/huge')) {
    // No content-length, 1 MB at a time: the cap must cut it off while it streams.
    res.writeHead(200, { 'content-type': 'image/png' });
    const chunk = Buffer.alloc(1024 * 1024, 1);
    const pump = () => {
      while (streamed < 64 * 1024 * 1024) {
        streamed += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (streamed = -streamed)); // negative: the client hung up before the end
    return pump();
  }
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
  res.end(PNG);
});
await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise((resolve) => internal.close(resolve)));
const sqlCountAccounts = sql`select count(*)::int as n from sandbox.accounts`;
const internalOrigin = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;

describe('21.3 the sandbox fetches URLs only through the outbound guard', () => {
  it('21.3 an internal URL (loopback, IPv4-mapped, metadata) is refused without a request being made', async () => {
    hits.length = 0;
    for (const url of [
      `${internalOrigin}/admin.png`,
      `http://[::ffff:127.0.0.1]:${(internal.address() as AddressInfo).port}/x.png`,
      'http://169.254.169.254/latest/meta-data/',
      `http://localhost:${(internal.address() as AddressInfo).port}/x.png`,
    ])
      expect(await fetchImageOverHttp(url, 'https://semel.example')).toBeNull();
    expect(hits).toEqual([]);
  });

  it("21.3 the app's own signed media path is the one internal URL fetched; another path on it is not", async () => {
    hits.length = 0;
    expect(await fetchImageOverHttp(`${internalOrigin}/api/media/abc?sig=x`, internalOrigin)).toEqual(
      new Uint8Array(PNG),
    );
    expect(await fetchImageOverHttp(`${internalOrigin}/api/v1/posts`, internalOrigin)).toBeNull();
    expect(hits).toEqual(['/api/media/abc?sig=x']);
  });

  it('21.3 an endless body is cut off at the cap while it streams, not read whole', async () => {
    streamed = 0;
    expect(await fetchImageOverHttp(`${internalOrigin}/api/media/huge`, internalOrigin)).toBeNull();
    await expect.poll(() => streamed < 0).toBe(true);
    expect(-streamed).toBeLessThan(MAX_SANDBOX_IMAGE_BYTES * 3);
  });

  it('21.3 a Threads IMAGE container with an internal image_url: no request reaches it, the container is ERROR', async () => {
    const sandbox = await startTestSandbox({ fetchImage: (url) => fetchImageOverHttp(url, 'https://semel.example') });
    const account = await sandbox.connectAccount('threads');
    hits.length = 0;
    const api = `${sandbox.url}/api/sandbox/threads/v1.0`;
    const auth = { authorization: `Bearer ${account.token}` };
    const url = `${internalOrigin}/secret.png`;
    const created = await fetch(`${api}/me/threads?media_type=IMAGE&image_url=${encodeURIComponent(url)}`, {
      method: 'POST',
      headers: auth,
    });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    const status = await fetch(`${api}/${id}?fields=status,error_message`, { headers: auth });
    expect(await status.json()).toMatchObject({ status: 'ERROR' });
    expect(hits).toEqual([]);
  });

  it('21.3 sandbox OAuth consent needs a signed-in member: nobody signed in gets no page, no user and no code', async () => {
    const sandbox = await startTestSandbox({ consentScope: async () => null });
    const redirect = `${sandbox.url}/api/oauth/threads/callback`;
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: 'semel-sandbox',
      redirect_uri: redirect,
      state: 's',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
      scope: 'threads_basic',
    });
    const authorize = `${sandbox.url}/api/sandbox/threads/oauth/authorize?${query}`;
    const page = await fetch(authorize);
    expect(page.status).toBe(401);
    expect(await page.text()).not.toContain('<form');
    const before = await sandbox.db.execute(sqlCountAccounts);
    const posted = await fetch(authorize, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ decision: 'authorize', account: 'new' }),
    });
    expect(posted.status).toBe(401);
    expect(posted.headers.get('location')).toBeNull();
    expect(await sandbox.db.execute(sqlCountAccounts)).toEqual(before);
  });
});
