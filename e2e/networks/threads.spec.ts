import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from '../support/auth';
import { expectDeliverySent, postNowAndOpen, threadNowAndOpen } from '../support/compose';
import { e2eSql } from '../support/db';
import { expectOneCopyWithImage, randomImage } from '../support/media';
import { connectThroughSandboxOAuth } from '../support/oauth';
import { expectThreadChain } from '../support/thread';

type Copy = { id: string; kind: string; in_reply_to_id: string | null; author: string };

/** Every copy of this text on the sandbox's Threads (deleted ones included). */
const sandboxCopies = (text: string) =>
  e2eSql()<Copy[]>`select p.id::text, p.kind, p.in_reply_to_id, a.platform_user_id as author
    from sandbox.posts p join sandbox.accounts a on a.id = p.account_id where p.text = ${text}`;

/** The post page's link to the sent delivery (its permalink) opens the post on the sandbox. */
async function expectLinkOpens(page: Page, handle: string, text: string, mediaId: string) {
  const delivery = page.getByRole('region', { name: `Delivery to ${handle}` });
  const link = delivery.getByRole('link', { name: 'View on platform' });
  await expect(link).toHaveAttribute('href', new RegExp(`/api/sandbox/threads/v1\\.0/${mediaId}\\?`));
  const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await expect(popup.locator('body')).toContainText(text);
  await popup.close();
}

test('an admin connects Threads through OAuth, then a post, a reply to it, an image and a thread are published once each', async ({
  page,
}) => {
  // A connect flow and four publishes (an image waits for Threads to process its container): longer than one test's default.
  test.slow();
  await signIn(page, 'admin@demo.test');
  await connectThroughSandboxOAuth(page, { label: 'Threads', path: 'threads' }, 'Authorize Semel');
  const status = page.getByRole('status').filter({ hasText: /^Connected / });
  await expect(status).toHaveText(/^Connected @sandbox_\d{4} on Threads\.$/);
  const handle = /Connected (@\S+) on Threads\./.exec((await status.textContent()) ?? '')![1]!;
  await expect(
    page
      .getByRole('list', { name: 'Connected accounts', exact: true })
      .getByRole('listitem', { name: handle, exact: true }),
  ).toBeVisible();
  const [account] = await e2eSql()<
    { platform_user_id: string; sandbox: boolean; base_url: string; token_status: string; expires_in_s: number }[]
  >`select platform_user_id, sandbox, base_url, token_status,
      extract(epoch from token_expires_at - now())::int as expires_in_s
    from social_accounts where provider = 'threads' and handle = ${handle}`;
  expect(account).toMatchObject({ sandbox: true, base_url: '/api/sandbox/threads', token_status: 'ok' });
  expect(account!.expires_in_s).toBeGreaterThan(0);

  const text = `Hello from Semel to Threads ${randomUUID()}`;
  await postNowAndOpen(page, handle, text);
  await expectDeliverySent(page, `${handle}`);
  const posts = await sandboxCopies(text);
  expect(posts).toEqual([
    { id: expect.any(String), kind: 'post', in_reply_to_id: null, author: account!.platform_user_id },
  ]);
  const mediaId = posts[0]!.id;
  const delivered = (t: string) =>
    e2eSql()<{ status: string; external_id: string; attempts: number }[]>`
      select d.status, d.external_id, (select count(*)::int from attempts x where x.delivery_id = d.id) as attempts
      from deliveries d join posts p on p.id = d.post_id where p.text = ${t}`;
  expect(await delivered(text)).toEqual([{ status: 'sent', external_id: mediaId, attempts: 1 }]);
  await expectLinkOpens(page, handle, text, mediaId);

  // The reply names the post by its platform id (reply_to_id on the container).
  const answer = `Replying on Threads ${randomUUID()}`;
  await postNowAndOpen(page, handle, answer, { inReplyTo: mediaId });
  await expectDeliverySent(page, `${handle}`);
  const replies = await sandboxCopies(answer);
  expect(replies).toEqual([
    { id: expect.any(String), kind: 'reply', in_reply_to_id: mediaId, author: account!.platform_user_id },
  ]);
  expect(await delivered(answer)).toEqual([{ status: 'sent', external_id: replies[0]!.id, attempts: 1 }]);
  await expectLinkOpens(page, handle, answer, replies[0]!.id);

  // An image with alt text: Threads fetches it from a signed link of this app into one IMAGE container, published once.
  const image = await randomImage();
  const pictured = `A picture on Threads ${randomUUID()}`;
  await postNowAndOpen(page, handle, pictured, { image });
  await expectDeliverySent(page, `${handle}`);
  await expectOneCopyWithImage(pictured, image);
  const [pictureCopy] = await sandboxCopies(pictured);
  expect(pictureCopy).toMatchObject({ kind: 'post', author: account!.platform_user_id });
  expect(await delivered(pictured)).toMatchObject([{ status: 'sent', external_id: pictureCopy!.id }]);

  // A thread of 3 from the connected account: one post per part, each replying to the part before it.
  const tag = randomUUID().slice(0, 8);
  const parts = [`Threads thread ${tag}: one`, `Threads thread ${tag}: two`, `Threads thread ${tag}: three`];
  await threadNowAndOpen(page, handle, parts);
  await expectThreadChain(page, handle, 'Threads', parts);
});
