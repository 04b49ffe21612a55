import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/env';
import { createProviderClient } from '@/lib/providers';
import { verifyAccount } from '@/lib/providers';
import { sendOnce } from './send';
import { classifyX } from '@/lib/providers/x/classifier';
import {
  addressRefusal,
  baseUrlRefusal,
  checkOutboundUrl,
  createOutboundLookup,
  MAX_RESPONSE_BYTES,
  OUTBOUND_REFUSED,
  parseAllowList,
} from './outbound-guard';

// This file's allow-list, read lazily by the guard: one loopback address a self-hoster allowed on purpose.
process.env.OUTBOUND_ALLOWED_HOSTS = '127.0.0.2';

/** A local HTTP server that counts what reaches it. */
async function startServer(handler: http.RequestListener, host = '127.0.0.1') {
  const hits: string[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port, url: `http://${host}:${port}`, hits, connections: () => connections };
}

const secret = await startServer((req, res) =>
  res.end(
    JSON.stringify(
      req.url?.endsWith('/api/v1/instance')
        ? { uri: 'internal.example' }
        : { id: '1', acct: 'a', username: 'a', note: 'INTERNAL-SECRET' },
    ),
  ),
);
const none = parseAllowList('');

describe('addresses (a row per range)', () => {
  const refused: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.20', 'private'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'metadata'],
    ['fc00::5', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a01:203', 'private'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
  ];
  for (const [address, why] of refused) {
    it(`refuses ${address} (${why})`, () =>
      expect(addressRefusal(address, none)).toContain(why === 'metadata' ? 'metadata' : why));
  }
  for (const address of ['::7f00:1', '::a00:1', '::808:808', '::127.0.0.1', '::8.8.8.8']) {
    it(`21.8 refuses ${address} (the deprecated IPv4-compatible ::/96 range)`, () =>
      expect(addressRefusal(address, none)).toMatch(/IPv4-compatible|loopback/));
  }
  it('21.8 refuses [::a.b.c.d] in a URL, for an internal and a public IPv4 alike', () => {
    for (const url of ['http://[::127.0.0.1]/', 'http://[::10.0.0.1]:8080/', 'http://[::8.8.8.8]/'])
      expect(checkOutboundUrl(new URL(url), {}, none)).toMatchObject({ ok: false });
  });
  for (const address of ['93.184.215.14', '2606:4700::1111']) {
    it(`allows public ${address}`, () => expect(addressRefusal(address, none)).toBeNull());
  }
  it('allows a private address only when the allow-list names it or its range', () => {
    const allow = parseAllowList('mastodon.lan, 192.168.1.20, 10.0.0.0/24, fd12::/16');
    expect(addressRefusal('192.168.1.20', allow)).toBeNull();
    expect(addressRefusal('::ffff:192.168.1.20', allow)).toBeNull();
    expect(addressRefusal('10.0.0.77', allow)).toBeNull();
    expect(addressRefusal('fd12::1', allow)).toBeNull();
    expect(addressRefusal('10.0.1.1', allow)).toContain('private');
    expect(addressRefusal('192.168.1.21', allow)).toContain('private');
    expect([...allow.hosts]).toEqual(['mastodon.lan']);
  });
  it('OUTBOUND_ALLOWED_HOSTS and TRUSTED_PROXIES are validated at start; blank means none', () => {
    const base = {
      NODE_ENV: 'production',
      NEXTAUTH_SECRET: 'p'.repeat(40),
      APP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CRON_SECRET: 'c'.repeat(24),
    } as unknown as NodeJS.ProcessEnv;
    const blank = parseEnv({ ...base, OUTBOUND_ALLOWED_HOSTS: '', TRUSTED_PROXIES: '' });
    expect([blank.OUTBOUND_ALLOWED_HOSTS, blank.TRUSTED_PROXIES]).toEqual([undefined, undefined]);
    expect(
      parseEnv({
        ...base,
        OUTBOUND_ALLOWED_HOSTS: 'mastodon.lan, 10.0.0.0/24',
        TRUSTED_PROXIES: '127.0.0.1,10.0.0.0/8',
      }).OUTBOUND_ALLOWED_HOSTS,
    ).toBe('mastodon.lan, 10.0.0.0/24');
    expect(() => parseEnv({ ...base, OUTBOUND_ALLOWED_HOSTS: 'https://mastodon.lan' })).toThrow(
      /OUTBOUND_ALLOWED_HOSTS: "https:\/\/mastodon.lan" is not a host name, IP or CIDR/,
    );
    expect(() => parseEnv({ ...base, TRUSTED_PROXIES: 'proxy.lan' })).toThrow(
      /TRUSTED_PROXIES: "proxy.lan" is not an IP or CIDR/,
    );
  });

  it('rejects an allow-list entry that is neither a host, an IP nor a CIDR', () => {
    expect(() => parseAllowList('10.0.0.0/99')).toThrow();
    expect(() => parseAllowList('http://x.example')).toThrow();
  });
});

describe('URLs: every spelling of an internal address is refused before connecting', () => {
  const cases = [
    'http://127.0.0.1:8080/api',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://[::1]:3000/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://0/',
  ];
  for (const url of cases) {
    it(`refuses ${url}`, () => expect(checkOutboundUrl(new URL(url), {}, none)).toMatchObject({ ok: false }));
  }
  it('refuses credentials in the URL and a bad stored base URL', () => {
    expect(checkOutboundUrl(new URL('https://u:p@mastodon.example/api'), {}, none)).toMatchObject({ ok: false });
    expect(
      checkOutboundUrl(
        new URL('https://mastodon.example/api'),
        { baseUrlProblem: 'must not contain a query (?…)' },
        none,
      ),
    ).toMatchObject({ ok: false });
  });
  it('trusts only the exact trusted origin', () => {
    expect(
      checkOutboundUrl(
        new URL('http://127.0.0.1:3000/api/sandbox/x/2/tweets'),
        { trustedOrigin: 'http://127.0.0.1:3000' },
        none,
      ),
    ).toEqual({ ok: true, trusted: true });
    expect(
      checkOutboundUrl(new URL('http://127.0.0.1:3001/'), { trustedOrigin: 'http://127.0.0.1:3000' }, none),
    ).toMatchObject({ ok: false });
  });
  it('base URLs: credentials, query and fragment are refused at account creation', () => {
    expect(baseUrlRefusal('https://mastodon.social')).toBeNull();
    expect(baseUrlRefusal('https://user:pw@mastodon.social')).toContain('user name or password');
    expect(baseUrlRefusal('https://mastodon.social/?a=1')).toContain('query');
    expect(baseUrlRefusal('https://mastodon.social/?')).toContain('query');
    expect(baseUrlRefusal('https://mastodon.social/#x')).toContain('fragment');
    expect(baseUrlRefusal('ftp://mastodon.social')).not.toBeNull();
  });
});

describe('sendOnce through the guard (real sockets)', () => {
  for (const spelling of ['127.0.0.1', '2130706433', '0x7f.1', 'localhost', '[::ffff:127.0.0.1]']) {
    it(`an admin-typed http://${spelling}:port never reaches the local server`, async () => {
      const before = secret.connections();
      const raw = await sendOnce({
        method: 'GET',
        url: `http://${spelling}:${secret.port}/api/v1/accounts/verify_credentials`,
      });
      expect(raw).toMatchObject({ type: 'error', code: OUTBOUND_REFUSED });
      expect(secret.connections()).toBe(before);
    });
  }

  it('the same server is reached through the trusted origin (so the refusals above are the guard)', async () => {
    const raw = await sendOnce({ method: 'GET', url: `${secret.url}/ok`, outbound: { trustedOrigin: secret.url } });
    expect(raw).toMatchObject({ type: 'response', status: 200 });
  });

  it('an address in OUTBOUND_ALLOWED_HOSTS is reached; its neighbour is not', async () => {
    const lan = await startServer((_req, res) => res.end('{"ok":true}'), '127.0.0.2');
    expect(await sendOnce({ method: 'GET', url: `${lan.url}/x` })).toMatchObject({
      type: 'response',
      status: 200,
      body: { ok: true },
    });
    expect(await sendOnce({ method: 'GET', url: `http://127.0.0.3:${lan.port}/x` })).toMatchObject({
      type: 'error',
      code: OUTBOUND_REFUSED,
    });
    expect(lan.hits).toEqual(['GET /x']);
  });

  it('the host name is resolved once per connection and the socket connects to the vetted address (no rebinding)', async () => {
    const calls: string[] = [];
    // A resolver that answers an internal address first and a public one second, as a rebinding attacker would.
    const answers = [
      [
        { address: '127.0.0.1', family: 4 },
        { address: '127.0.0.2', family: 4 },
      ],
    ];
    const lookup = createOutboundLookup(
      () => parseAllowList('127.0.0.2'),
      (host, _options, callback) => {
        calls.push(host);
        callback(null, answers.shift() ?? [{ address: '127.0.0.1', family: 4 }]);
      },
    );
    const lan = await startServer((req, res) => res.end(req.socket.localAddress), '127.0.0.2');
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get({ host: 'rebind.example', port: lan.port, path: '/', lookup, agent: false }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c)).on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    expect(body).toBe('127.0.0.2');
    expect(calls).toEqual(['rebind.example']);
    // The second answer (internal only) is refused outright.
    const refused = await new Promise<NodeJS.ErrnoException>((resolve) => {
      http.get({ host: 'rebind.example', port: lan.port, path: '/', lookup, agent: false }).on('error', resolve);
    });
    expect(refused.code).toBe(OUTBOUND_REFUSED);
    expect(lan.hits).toEqual(['GET /']);
  });

  it('never follows a redirect to an internal address', async () => {
    const redirector = await startServer((_req, res) =>
      res.writeHead(302, { location: `${secret.url}/internal` }).end(),
    );
    const before = secret.hits.length;
    const raw = await sendOnce({
      method: 'GET',
      url: `${redirector.url}/`,
      outbound: { trustedOrigin: redirector.url },
    });
    expect(raw).toMatchObject({ type: 'response', status: 302 });
    expect(secret.hits.length).toBe(before);
  });
});

describe('response bodies are capped at 1 MB', () => {
  it('a 150 MB answer is cut off as a body error and its socket destroyed', async () => {
    let written = 0;
    let closed!: () => void;
    const socketClosed = new Promise<void>((resolve) => (closed = resolve));
    const huge = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (written < 150 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.socket!.on('close', closed);
      pump();
    });
    const raw = await sendOnce({
      method: 'POST',
      url: `${huge.url}/2/tweets`,
      json: { text: 'hi' },
      outbound: { trustedOrigin: huge.url },
    });
    expect(raw).toMatchObject({ type: 'body-error', status: 200, code: 'BODY_TOO_LARGE' });
    await socketClosed;
    expect(written).toBeLessThan(20 * 1024 * 1024);
    // A 2xx whose body was refused: the post may exist, so it is ambiguous, never retried blindly.
    expect(classifyX(raw)).toMatchObject({ outcome: 'ambiguous', rule: 'success-body-lost' });
  });

  it('an answer just under the cap is read whole', async () => {
    const text = 'a'.repeat(MAX_RESPONSE_BYTES - 20);
    const big = await startServer((_req, res) => res.end(JSON.stringify({ text })));
    const raw = await sendOnce({ method: 'GET', url: `${big.url}/`, outbound: { trustedOrigin: big.url } });
    expect(raw).toMatchObject({ type: 'response', status: 200, body: { text } });
  });
});

describe('provider clients and the connection check', () => {
  it('an absolute base URL naming this app is guarded; only the sandbox path is trusted', async () => {
    const typed = createProviderClient(
      { provider: 'mastodon', baseUrl: secret.url, platformUserId: '1', accessToken: 't' },
      { origin: secret.url },
    );
    expect(await typed.whoAmI()).toMatchObject({ ok: false, rule: 'outbound-refused' });
    const sandbox = createProviderClient(
      { provider: 'mastodon', baseUrl: '/api/sandbox/mastodon', platformUserId: '1', accessToken: 't' },
      { origin: secret.url },
    );
    expect(await sandbox.whoAmI()).toMatchObject({ ok: true, id: '1', handle: '@a@internal.example' });
  });

  it('a stored base URL with credentials, a query or a fragment is refused at call time, with no request', async () => {
    for (const baseUrl of [
      'https://u:p@mastodon.example',
      'https://mastodon.example/?a=1',
      'https://mastodon.example/#f',
    ]) {
      const client = createProviderClient({ provider: 'mastodon', baseUrl, platformUserId: '1', accessToken: 't' });
      const result = await client.publish({ text: 'hi', kind: 'post', idempotencyKey: 'k' });
      expect(result).toMatchObject({ outcome: 'failed', rule: 'outbound-refused' });
    }
  });

  for (const [label, host] of [
    ['loopback', '127.0.0.1'],
    ['decimal', '2130706433'],
    ['metadata', '169.254.169.254'],
  ] as const) {
    it(`the connection check refuses a ${label} URL, names the class, echoes nothing`, async () => {
      const before = secret.hits.length;
      const check = await verifyAccount('mastodon', {
        instanceUrl: `http://${host}:${secret.port}`,
        accessToken: 'token-123456',
      });
      expect(check).toEqual({ ok: false, message: expect.stringContaining('private or internal network') });
      expect(secret.hits.length).toBe(before);
    });
  }

  it('a failed check never shows the remote body', async () => {
    const talkative = await startServer((_req, res) =>
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"INTERNAL-SECRET db=10.0.0.5"}'),
    );
    const client = createProviderClient(
      { provider: 'mastodon', baseUrl: '/api/sandbox/mastodon', platformUserId: '1', accessToken: 't' },
      { origin: talkative.url },
    );
    const me = await client.whoAmI();
    expect(me).toMatchObject({ ok: false, rule: 'unauthorized' });
    const { connectionCheckFailure } = await import('@/lib/providers/connection-check');
    const message = connectionCheckFailure(me as Extract<typeof me, { ok: false }>);
    expect(message).toBe('Connection check failed: the platform rejected the access token (401).');
    expect(message).not.toContain('INTERNAL-SECRET');
  });

  const notAccounts: [string, unknown][] = [
    ['an empty object', {}],
    ['a numeric id', { id: 1, acct: 'a', username: 'a' }],
    ['no username', { id: '1', acct: 'a' }],
    ['no acct', { id: '1', username: 'a' }],
    ['an error object', { error: 'nope' }],
  ];
  for (const [label, body] of notAccounts) {
    it(`the Mastodon check refuses ${label} as an account`, async () => {
      const fake = await startServer((_req, res) => res.end(JSON.stringify(body)));
      const client = createProviderClient(
        { provider: 'mastodon', baseUrl: '/api/sandbox/mastodon', platformUserId: '1', accessToken: 't' },
        { origin: fake.url },
      );
      expect(await client.whoAmI()).toMatchObject({ ok: false, outcome: 'failed', rule: 'not-an-account' });
    });
  }
});
