import { mkdirSync, mkdtempSync, rmSync, utimesSync, existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { insertPostMedia } from '@/db/queries/media';
import { media, mediaUploads } from '@/db/schema';
import { makePost, makeUser, makeWorkspace } from '@/testing/db/factories';
import { createTestDatabase } from '@/testing/db/test-database';
import { pruneMediaJob } from '@/lib/jobs/prune-media';
import { checkRequestLink, createRequestLink } from '@/lib/requests/links';
import { getMediaStorage } from './storage';
import { makeImage } from '@/testing/images';
import { uploadMedia } from './upload';
import { newUploadId, uploadDirectory } from './tus';
import { createVideoUpload } from './video-upload';

// Found in the second security review (docs/security.md#changed-in-the-second-security-review): request links never
// expired, unreferenced uploads stayed forever, and nothing bounded a workspace's storage.
const mediaDir = mkdtempSync(path.join(os.tmpdir(), 'semel-retention-'));
process.env.MEDIA_DIR = mediaDir;
process.env.MEDIA_QUOTA_BYTES_PER_WORKSPACE = '1000';
process.env.SEMEL_DATA_DIR = path.join(mediaDir, 'data');
afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));
const { db } = await createTestDatabase({ max: 10 });

const upload = async (workspaceId: string, seed: number, key = randomUUID()) =>
  uploadMedia(
    db,
    { file: await makeImage('png', { seed, width: 40, height: 30 }), altText: 'a picture' },
    { workspaceId, idempotencyKey: key, actor: 'user:test', storage: getMediaStorage() },
  );
const fileOf = (sha256: string) => path.join(mediaDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
const rowOf = async (id: string) => (await db.select().from(media).where(eq(media.id, id)))[0];

describe('21.6 request links expire, unreferenced media is removed after 24 h, and a workspace has a storage quota', () => {
  it('21.6 a request link with an expiry answers 410 "Link expired" once it has passed; without one it stays open', async () => {
    const workspace = await makeWorkspace(db);
    const admin = await makeUser(db);
    const open = await createRequestLink(db, { workspaceId: workspace.id, userId: admin.id, label: 'open' });
    const soon = await createRequestLink(db, {
      workspaceId: workspace.id,
      userId: admin.id,
      label: 'soon',
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await checkRequestLink(db, soon.token, '192.0.2.1')).ok).toBe(true);
    await db.execute(sql`update request_links set expires_at = now() - interval '1 second' where id = ${soon.id}`);
    expect(await checkRequestLink(db, soon.token, '192.0.2.1')).toMatchObject({
      ok: false,
      status: 410,
      title: 'Link expired',
    });
    expect((await checkRequestLink(db, open.token, '192.0.2.1')).ok).toBe(true);
  });

  it('21.6 the prune-media job removes uploads no post references after 24 h, with their bytes; the rest stays', async () => {
    const workspace = await makeWorkspace(db);
    const [kept, unused, fresh] = [
      await upload(workspace.id, 1),
      await upload(workspace.id, 2),
      await upload(workspace.id, 3),
    ];
    if (kept.kind !== 'ok' || unused.kind !== 'ok' || fresh.kind !== 'ok') throw new Error('upload failed');
    const post = await makePost(db, workspace.id);
    await insertPostMedia(db, { postId: post.id, mediaIds: [kept.mediaId] });
    const old = new Date(Date.now() - 25 * 60 * 60 * 1000);
    for (const id of [kept.mediaId, unused.mediaId]) {
      await db.update(media).set({ createdAt: old }).where(eq(media.id, id));
      utimesSync(fileOf((await rowOf(id))!.sha256), old, old);
    }
    const unusedSha = (await rowOf(unused.mediaId))!.sha256;
    const summary = await pruneMediaJob.run(db, pruneMediaJob.defaults());
    expect(summary.deleted).toBeGreaterThanOrEqual(1);
    expect(await rowOf(unused.mediaId)).toBeUndefined();
    expect(existsSync(fileOf(unusedSha))).toBe(false);
    expect(await rowOf(kept.mediaId)).toBeDefined();
    expect(existsSync(fileOf((await rowOf(kept.mediaId))!.sha256))).toBe(true);
    expect(await rowOf(fresh.mediaId)).toBeDefined(); // under 24 h: a form may still attach it
  });

  it('a video upload never finished within 24 h goes with its partial file; a fresh one stays', async () => {
    const workspace = await makeWorkspace(db);
    const partial = async (now: Date) => {
      const id = newUploadId();
      const created = await createVideoUpload(db, {
        id,
        workspaceId: workspace.id,
        actor: 'user:test',
        length: 100,
        metadata: { filetype: 'video/mp4' },
        now,
      });
      expect(created.ok).toBe(true);
      mkdirSync(uploadDirectory(), { recursive: true });
      writeFileSync(path.join(uploadDirectory(), id), 'half a video');
      writeFileSync(path.join(uploadDirectory(), `${id}.json`), '{}');
      return id;
    };
    const stale = await partial(new Date(Date.now() - 25 * 60 * 60 * 1000));
    const fresh = await partial(new Date());
    const summary = await pruneMediaJob.run(db, pruneMediaJob.defaults());
    expect(summary.expiredUploads).toBeGreaterThanOrEqual(1);
    const left = (await db.select({ id: mediaUploads.id }).from(mediaUploads)).map((r) => r.id);
    expect(left).toContain(fresh);
    expect(left).not.toContain(stale);
    expect(existsSync(path.join(uploadDirectory(), stale))).toBe(false);
    expect(existsSync(path.join(uploadDirectory(), `${stale}.json`))).toBe(false);
    expect(existsSync(path.join(uploadDirectory(), fresh))).toBe(true);
  });

  it('21.6 an upload past the workspace quota is refused with a clear error and stores nothing; a retry still replays', async () => {
    const workspace = await makeWorkspace(db);
    const key = randomUUID();
    const first = await upload(workspace.id, 10, key);
    expect(first.kind).toBe('ok');
    let refused: Awaited<ReturnType<typeof upload>> | undefined;
    for (let seed = 11; seed < 200 && !refused; seed++) {
      const result = await upload(workspace.id, seed);
      if (result.kind === 'invalid') refused = result;
    }
    expect(refused).toMatchObject({ kind: 'invalid', errors: { file: [expect.stringMatching(/storage is full/)] } });
    const [{ n }] = [
      ...(await db.execute<{ n: number }>(
        sql`select coalesce(sum(size), 0)::int as n from media where workspace_id = ${workspace.id}`,
      )),
    ] as { n: number }[];
    expect(n).toBeLessThanOrEqual(1000);
    expect(await upload(workspace.id, 10, key)).toMatchObject({ kind: 'ok', replayed: true });
  });
});
