import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { media } from '@/db/schema';
import { makeAccount, makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { makeImage } from '@/testing/images';
import { createRequestLink, revokeRequestLinkAudited } from '@/lib/requests/links';
import { POST as upload } from './route';

const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-request-media-'));
process.env.MEDIA_DIR = mediaDir;
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

const { db, url } = await createTestDatabase();
process.env.DATABASE_URL = url; // the route handler's getDb() reads this file's database

async function linked() {
  const workspace = await makeWorkspace(db);
  await makeAccount(db, workspace.id);
  const admin = await makeUser(db);
  const link = await createRequestLink(db, { workspaceId: workspace.id, userId: admin.id, label: 'Acme' });
  return { workspace, admin, link };
}

const params = (token: string) => ({ params: Promise.resolve({ token }) });

function uploadRequest(options: { file?: Uint8Array; altText?: string; key?: string; body?: BodyInit } = {}) {
  const form = new FormData();
  if (options.file) form.set('file', new Blob([Buffer.from(options.file)], { type: 'image/png' }), 'a.png');
  if (options.altText !== undefined) form.set('altText', options.altText);
  return new Request('http://localhost/api/request/x/media', {
    method: 'POST',
    headers: { 'idempotency-key': options.key ?? randomUUID() },
    body: form,
  });
}

const rows = async (workspaceId: string) =>
  (await db.select({ n: count() }).from(media).where(eq(media.workspaceId, workspaceId)))[0]!.n;
const storedFiles = () => readdirSync(mediaDir, { recursive: true }).length;

describe('POST /api/request/<token>/media', () => {
  it('stores the image for the link’s workspace, owned by the link; the same key is stored once', async () => {
    const { workspace, link } = await linked();
    const key = randomUUID();
    const file = await makeImage('png', { seed: 3 });
    const first = await upload(uploadRequest({ file, altText: 'Our shop', key }), params(link.token));
    expect(first.status).toBe(201);
    const body = (await first.json()) as { id: string; altText: string };
    expect(body.altText).toBe('Our shop');
    const again = await upload(uploadRequest({ file, altText: 'Our shop', key }), params(link.token));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const [row] = await db.select().from(media).where(eq(media.id, body.id));
    expect(row).toMatchObject({ workspaceId: workspace.id, createdBy: `request_link:${link.id}` });
    expect(await rows(workspace.id)).toBe(1);
  });

  it('an image over 5 MB is refused with a clear 413 problem, and nothing is stored', async () => {
    const { workspace, link } = await linked();
    const before = storedFiles();
    const big = new Uint8Array(6 * 1024 * 1024);
    const res = await upload(uploadRequest({ file: big, altText: 'Huge' }), params(link.token));
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(((await res.json()) as { detail: string }).detail).toBe('The image is larger than 5 MB.');
    expect(await rows(workspace.id)).toBe(0);
    expect(storedFiles()).toBe(before);
  });

  it('not an image, or no alt text when the workspace requires it: 422 with field errors, nothing stored', async () => {
    const { workspace, link } = await linked();
    const bytes = new TextEncoder().encode('not an image');
    const res = await upload(uploadRequest({ file: bytes, altText: 'x' }), params(link.token));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors.file).toBeDefined();
    expect(await rows(workspace.id)).toBe(0);
  });

  it('an unknown link is 404, a revoked one 410, a cross-site upload 403; nothing stored', async () => {
    const { workspace, admin, link } = await linked();
    const file = await makeImage('png');
    expect((await upload(uploadRequest({ file }), params(`${randomUUID()}.${'a'.repeat(43)}`))).status).toBe(404);
    const crossSite = uploadRequest({ file });
    const headers = new Headers(crossSite.headers);
    headers.set('origin', 'https://evil.example');
    const res = await upload(
      new Request(crossSite, { headers, body: crossSite.body, duplex: 'half' } as RequestInit),
      params(link.token),
    );
    expect(res.status).toBe(403);
    await revokeRequestLinkAudited(db, { workspaceId: workspace.id, userId: admin.id, id: link.id });
    expect((await upload(uploadRequest({ file }), params(link.token))).status).toBe(410);
    expect(await rows(workspace.id)).toBe(0);
  });
});
