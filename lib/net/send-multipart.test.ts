import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeMultipart, sendOnce } from './send';

/** A real loopback server that hands back what it received: method, content type and the raw body. */
const received: { method: string; type: string; body: Buffer }[] = [];
const server = createServer((req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ method: req.method!, type: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
    res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`;
/** Loopback is refused by the outbound guard: the test trusts its own server's origin. */
const outbound = { trustedOrigin: new URL(url).origin };
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const image = new Uint8Array([0xff, 0xd8, 0xff, 0x00, 0x0d, 0x0a, 0x2d, 0x2d, 0xfe]); // binary, with CRLF and "--" inside

describe('multipart bodies (media uploads)', () => {
  it('sends fields and files that a standard parser reads back byte for byte', async () => {
    const raw = await sendOnce({
      method: 'POST',
      url,
      outbound,
      multipart: {
        fields: { media_category: 'tweet_image', description: 'Zwei Äpfel\r\nauf dem Tisch' },
        files: [{ name: 'media', filename: 'image-1', contentType: 'image/jpeg', data: image }],
      },
    });
    expect(raw).toMatchObject({ type: 'response', status: 201 });
    const got = received.at(-1)!;
    expect(got.type).toMatch(/^multipart\/form-data; boundary=----semel[0-9a-f]{24}$/);
    const form = await new Request('http://x/', {
      method: 'POST',
      headers: { 'content-type': got.type },
      body: new Uint8Array(got.body),
    }).formData();
    expect(form.get('media_category')).toBe('tweet_image');
    expect(form.get('description')).toBe('Zwei Äpfel\r\nauf dem Tisch');
    const file = form.get('media') as File;
    expect(file.name).toBe('image-1');
    expect(file.type).toBe('image/jpeg');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(image);
  });

  it('a name cannot break out of its header (quotes and line breaks are escaped), and each body has its own boundary', () => {
    const { data } = encodeMultipart(
      { files: [{ name: 'file', filename: 'a"\r\nX-Evil: 1', contentType: 'image/png', data: image }] },
      'B',
    );
    const head = data.toString('latin1').split('\r\n\r\n')[0]!;
    expect(head).toBe(
      '--B\r\nContent-Disposition: form-data; name="file"; filename="a%22%0D%0AX-Evil: 1"\r\nContent-Type: image/png',
    );
    expect(encodeMultipart({ files: [] }).contentType).not.toBe(encodeMultipart({ files: [] }).contentType);
  });

  it('PUT with raw bytes (LinkedIn image upload)', async () => {
    const raw = await sendOnce({ method: 'PUT', url, outbound, bytes: { data: image, contentType: 'image/jpeg' } });
    expect(raw).toMatchObject({ type: 'response', status: 201 });
    expect(received.at(-1)).toMatchObject({ method: 'PUT', type: 'image/jpeg' });
    expect(new Uint8Array(received.at(-1)!.body)).toEqual(image);
  });
});
