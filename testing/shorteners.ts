import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

/**
 * Local HTTP fakes of the external link shorteners, speaking their documented wire formats, each keeping one short link
 * per long URL as the real ones do (Bitly per group: 201 new, 200 existing; Shlink with `findIfExists`; YOURLS' unique
 * URLs: `status: fail, code: error:url` naming the existing one). They check the credentials each one takes and count
 * the calls. On a free loopback port, reached as `localhost` (tests allow it with OUTBOUND_ALLOWED_HOSTS).
 */
export async function startShortenerFakes(secrets = { bitly: 'bitly-token', shlink: 'shlink-key', yourls: 'sig' }) {
  const links = {
    bitly: new Map<string, string>(),
    shlink: new Map<string, string>(),
    yourls: new Map<string, string>(),
  };
  const calls = { bitly: 0, shlink: 0, yourls: 0 };
  let base = '';
  const shortOf = (kind: keyof typeof links, longUrl: string) => {
    const existing = links[kind].get(longUrl);
    if (existing) return { shortUrl: existing, created: false };
    const shortUrl = `${base}/${kind}/${kind[0]}${links[kind].size + 1}`;
    links[kind].set(longUrl, shortUrl);
    return { shortUrl, created: true };
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, json: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'POST' && url.pathname === '/v4/shorten') {
        calls.bitly++;
        if (req.headers.authorization !== `Bearer ${secrets.bitly}`)
          return send(403, {
            message: 'FORBIDDEN',
            description: 'You are currently forbidden to access this resource.',
          });
        const { long_url: longUrl } = JSON.parse(body) as { long_url?: string };
        if (!longUrl) return send(400, { message: 'INVALID_ARG_LONG_URL' });
        const { shortUrl, created } = shortOf('bitly', longUrl);
        return send(created ? 201 : 200, {
          created_at: new Date().toISOString(),
          id: shortUrl.replace(/^https?:\/\//, ''),
          link: shortUrl,
          long_url: longUrl,
          archived: false,
          references: {},
        });
      }
      if (req.method === 'POST' && url.pathname === '/rest/v3/short-urls') {
        calls.shlink++;
        if (req.headers['x-api-key'] !== secrets.shlink)
          return send(401, {
            type: 'https://shlink.io/api/error/invalid-api-key',
            title: 'Invalid API key',
            status: 401,
          });
        const { longUrl, findIfExists } = JSON.parse(body) as { longUrl?: string; findIfExists?: boolean };
        if (!longUrl) return send(400, { type: 'https://shlink.io/api/error/invalid-data', status: 400 });
        // Without findIfExists Shlink makes a new short URL every time: the fake does too.
        const { shortUrl } = findIfExists
          ? shortOf('shlink', longUrl)
          : shortOf('shlink', `${longUrl}#${calls.shlink}`);
        return send(200, {
          shortCode: shortUrl.split('/').pop(),
          shortUrl,
          longUrl,
          dateCreated: new Date().toISOString(),
        });
      }
      if (url.pathname === '/yourls-api.php') {
        calls.yourls++;
        const form = new URLSearchParams(req.method === 'POST' ? body : url.search);
        if (form.get('signature') !== secrets.yourls)
          return send(403, { errorCode: 403, message: 'Please log in', callback: '' });
        const longUrl = form.get('url');
        if (form.get('action') !== 'shorturl' || !longUrl) return send(400, { errorCode: 400, message: 'Missing url' });
        const { shortUrl, created } = shortOf('yourls', longUrl);
        return send(
          200,
          created
            ? {
                status: 'success',
                code: '',
                url: { keyword: shortUrl.split('/').pop(), url: longUrl },
                shorturl: shortUrl,
                statusCode: 200,
              }
            : {
                status: 'fail',
                code: 'error:url',
                message: `${longUrl} already exists in database`,
                shorturl: shortUrl,
                statusCode: 200,
              },
        );
      }
      send(404, { message: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://localhost:${(server.address() as AddressInfo).port}`;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: base, secrets, links, calls };
}
