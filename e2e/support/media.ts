import { randomInt, randomUUID } from 'node:crypto';
import { expect } from '@playwright/test';
import sharp from 'sharp';
import type { ComposerImage } from './compose';
import { e2eSql } from './db';

/** A small JPEG of a random colour (so each test uploads its own content), with its alt text. */
export async function randomImage(): Promise<ComposerImage> {
  const background = { r: randomInt(256), g: randomInt(256), b: randomInt(256) };
  const buffer = await sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .jpeg()
    .toBuffer();
  return { buffer, mimeType: 'image/jpeg', altText: `A plain square ${randomUUID().slice(0, 8)}` };
}

/**
 * The post with this text went out as exactly one copy on the sandbox, and that copy carries the image: its type,
 * its alt text and the bytes Semel stored (by SHA-256), as the platform received them.
 */
export async function expectOneCopyWithImage(text: string, image: ComposerImage): Promise<void> {
  const stored = await e2eSql()<{ sha256: string }[]>`
    select m.sha256 from media m join post_media pm on pm.media_id = m.id join posts p on p.id = pm.post_id
    where p.text = ${text}`;
  expect(stored).toHaveLength(1);
  const copies = await e2eSql()<{ media: unknown }[]>`select media from sandbox.posts where text = ${text}`;
  expect(copies).toEqual([{ media: [{ type: image.mimeType, altText: image.altText, sha256: stored[0]!.sha256 }] }]);
}
