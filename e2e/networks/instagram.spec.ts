import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { attachImage, expectDeliverySent, postNowAndOpen } from '../support/compose';
import { e2eSql } from '../support/db';
import { expectOneCopyWithImage, randomImage } from '../support/media';
import { connectThroughSandboxOAuth } from '../support/oauth';

test('an admin connects Instagram through OAuth; a post without an image is refused, one with an image and one posted as a Story go out once each', async ({
  page,
}) => {
  // A connect flow and a publish whose image Instagram fetches and processes first.
  test.slow();
  await signIn(page, 'admin@demo.test');
  await connectThroughSandboxOAuth(page, { label: 'Instagram', path: 'instagram' }, 'Authorize Semel');
  const status = page.getByRole('status').filter({ hasText: /^Connected / });
  await expect(status).toHaveText(/^Connected @sandbox_\d{4} on Instagram\.$/);
  const handle = /Connected (@\S+) on Instagram\./.exec((await status.textContent()) ?? '')![1]!;
  const [account] = await e2eSql()<{ sandbox: boolean; base_url: string; token_status: string }[]>`
    select sandbox, base_url, token_status from social_accounts where provider = 'instagram' and handle = ${handle}`;
  expect(account).toEqual({ sandbox: true, base_url: '/api/sandbox/instagram', token_status: 'ok' });

  // Text alone: Instagram publishes nothing without an image or a video — said before scheduling, refused on the server.
  const textOnly = `Words only for Instagram ${randomUUID()}`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: new RegExp(handle) }).check();
  await page.getByLabel('Text').fill(textOnly);
  await expect(page.getByText(`${handle} (Instagram) publishes only posts with an image or a video.`)).toBeVisible();
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByText(/publishes only posts with an image or a video: attach one/)).toBeVisible();
  expect(await e2eSql()`select 1 from posts where text = ${textOnly}`).toHaveLength(0);

  // An image: Instagram fetches it from a signed link of this app into one container, published once.
  const image = await randomImage();
  const text = `A picture on Instagram ${randomUUID()}`;
  await postNowAndOpen(page, handle, text, { image });
  await expectDeliverySent(page, handle);
  await expectOneCopyWithImage(text, image);
  const [delivered] = await e2eSql()<{ status: string; attempts: number; container: string | null }[]>`
    select d.status, (select count(*)::int from attempts x where x.delivery_id = d.id) as attempts,
      d.provider_state->>'containerId' as container
    from deliveries d join posts p on p.id = d.post_id where p.text = ${text}`;
  expect(delivered).toMatchObject({ status: 'sent', attempts: 1, container: expect.stringMatching(/^\d+$/) });

  // "Post as: Story": one image, no caption on Instagram, published once as a Story.
  const storyImage = await randomImage();
  const story = `A Story on Instagram ${randomUUID()}`;
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: new RegExp(handle) }).check();
  await page.getByLabel('Text').fill(story);
  await attachImage(page, storyImage);
  await page
    .getByRole('group', { name: `Post as on ${handle} (Instagram)` })
    .getByRole('radio', { name: /^Story/ })
    .check();
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('link', { name: 'View the post' }).click();
  await expectDeliverySent(page, handle);
  const stories = await e2eSql()<{ media_type: string; format: string }[]>`
    select c.media_type, d.format from deliveries d join posts p on p.id = d.post_id
    join sandbox.threads_containers c on c.id = (d.provider_state->>'containerId')::bigint where p.text = ${story}`;
  expect(stories).toEqual([{ media_type: 'STORIES', format: 'story' }]);
});

test('a thread to Instagram is the post and its first comment: the comment goes out after the post, once, on it', async ({
  page,
}) => {
  test.slow();
  await signIn(page, 'admin@demo.test');
  await connectThroughSandboxOAuth(page, { label: 'Instagram', path: 'instagram' }, 'Authorize Semel');
  const status = page.getByRole('status').filter({ hasText: /^Connected / });
  const handle = /Connected (@\S+) on Instagram\./.exec((await status.textContent()) ?? '')![1]!;

  const tag = randomUUID();
  const [postText, commentText] = [`The post ${tag}`, `And its first comment ${tag}`];
  await page.goto('/compose');
  await page.getByRole('checkbox', { name: new RegExp(handle) }).check();
  await page.getByRole('radio', { name: 'Thread' }).check();
  // The composer says what part 2 becomes, with the comment's own limit in its count.
  await expect(
    page.getByRole('note').filter({ hasText: 'On Instagram, part 2 is the post’s first comment' }),
  ).toBeVisible();
  await page.getByLabel('Part 1', { exact: true }).fill(postText);
  await page.getByLabel('Part 2', { exact: true }).fill(commentText);
  await expect(page.locator('#part-1-count')).toContainText(`${commentText.length}/2200 Instagram comment`);
  const image = await randomImage();
  const first = page.getByRole('group', { name: 'Images of part 1' });
  await first
    .getByLabel('Add images')
    .setInputFiles({ name: 'image.jpeg', mimeType: image.mimeType, buffer: image.buffer });
  await first.getByLabel(/Alt text for image 1/).fill(image.altText);
  await first.getByRole('button', { name: 'Upload image 1' }).click();
  await expect(first.getByRole('list', { name: 'Images of this part' }).getByText('Image 1 uploaded')).toBeVisible();
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await page.getByRole('link', { name: 'View the post' }).click();

  await expect
    .poll(
      async () =>
        (
          await e2eSql()<{ status: string }[]>`
            select d.status from deliveries d join posts p on p.id = d.post_id where p.text = ${postText} order by d.part`
        ).map((d) => d.status),
      { timeout: 30_000 },
    )
    .toEqual(['sent', 'sent']);
  // On the platform's own records: one post with the image, one comment of the account's on that post.
  await expectOneCopyWithImage(postText, image);
  const comments = await e2eSql()<{ parent: string; post_id: string }[]>`
    select c.in_reply_to_id::text as parent, d.external_id as post_id
    from sandbox.posts c, deliveries d join posts p on p.id = d.post_id
    where c.text = ${commentText} and p.text = ${postText} and d.part = 0`;
  expect(comments).toHaveLength(1);
  expect(comments[0]!.parent).toBe(comments[0]!.post_id);
});
