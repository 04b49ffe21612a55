import { randomBytes, randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { expectDeliverySent, postNowAndOpen, threadNowAndOpen } from '../support/compose';
import { e2eSql } from '../support/db';
import { expectOneCopyWithImage, randomImage } from '../support/media';
import { expectThreadChain } from '../support/thread';

type SentDelivery = { status: string; attempts: number; external_id: string; external_url: string };

/** The one delivery of the post with this text: status, attempts made, the platform's id and link. */
async function deliveryOf(text: string): Promise<SentDelivery> {
  const rows = await e2eSql()<SentDelivery[]>`
    select d.status, d.external_id, d.external_url,
      (select count(*)::int from attempts t where t.delivery_id = d.id) as attempts
    from deliveries d join posts p on p.id = d.post_id where p.text = ${text}`;
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** Every copy of this text on the sandbox PDS (deleted ones included), with its record. */
async function sandboxCopies(text: string) {
  return e2eSql()<{ kind: string; record_key: string; record: Record<string, unknown>; did: string }[]>`
    select p.kind, p.record_key, p.record, a.platform_user_id as did
    from sandbox.posts p join sandbox.accounts a on a.id = p.account_id where p.text = ${text}`;
}

test('an admin signs up on the sandbox PDS, connects with handle and app password (a wrong one is refused), then a post, a reply to it, an image and a thread publish once each', async ({
  page,
  baseURL,
}) => {
  // A connect flow and four publishes, each checked on the platform's records: longer than one test's default.
  test.slow();
  // Signing up on the PDS, as someone does on bsky.app before connecting Semel (the sandbox's createAccount).
  const name = `e2e-${randomBytes(4).toString('hex')}`;
  const handle = `${name}.bsky.sandbox`;
  const password = `app-${randomBytes(8).toString('hex')}`;
  const signUp = await page.request.post('/api/sandbox/bluesky/xrpc/com.atproto.server.createAccount', {
    data: { handle, email: `${name}@example.com`, password },
  });
  expect(signUp.status()).toBe(200);
  const { did } = (await signUp.json()) as { did: string };
  const storedAccounts = () =>
    e2eSql()<{ n: number }[]>`select count(*)::int as n from social_accounts where platform_user_id = ${did}`;

  await signIn(page, 'admin@demo.test');
  await page.goto('/accounts');
  const form = page.getByRole('form', { name: 'Bluesky account', exact: true });
  // The app's own sandbox PDS, by a host name the e2e server's outbound guard allows (playwright.config.ts).
  const pds = `${baseURL!.replace('127.0.0.1', 'localhost')}/api/sandbox/bluesky`;
  await form.getByLabel('PDS URL').fill(pds);
  await form.getByLabel('Handle or email').fill(`@${handle}`);
  const appPassword = form.getByLabel('App password');
  const connect = form.getByRole('button', { name: 'Check and connect Bluesky' });

  // Too short to be an app password: a field error, nothing asked of the PDS.
  await appPassword.fill('short');
  await connect.click();
  await expect(form.getByText('Paste the whole app password')).toBeVisible();
  await expect(appPassword).toHaveAttribute('aria-invalid', 'true');
  // A wrong app password: the PDS refuses the session, the form says so, nothing is stored.
  await appPassword.fill('wrong-app-password');
  await connect.click();
  await expect(form.getByRole('status')).toHaveText(
    'Connection check failed: the PDS did not accept this handle and app password (401).',
  );
  expect((await storedAccounts())[0]!.n).toBe(0);

  await appPassword.fill(password);
  await connect.click();
  await expect(form.getByRole('status')).toHaveText(`Connected @${handle} on Bluesky.`);
  await expect(
    page
      .getByRole('list', { name: 'Connected accounts', exact: true })
      .getByRole('listitem', { name: `@${handle}`, exact: true }),
  ).toBeVisible();
  const [account] = await e2eSql()<
    { provider: string; sandbox: boolean; base_url: string; token_status: string; credentials_encrypted: string }[]
  >`select provider, sandbox, base_url, token_status, credentials_encrypted from social_accounts where platform_user_id = ${did}`;
  expect(account).toMatchObject({ provider: 'bluesky', sandbox: false, base_url: pds, token_status: 'ok' });
  expect(account!.credentials_encrypted).toMatch(/^v2\./);
  expect(account!.credentials_encrypted).not.toContain(password);

  // A post: one record under the delivery's key, sent after one attempt.
  const text = `Hello from Semel to Bluesky ${randomUUID()}`;
  await postNowAndOpen(page, `@${handle}`, text);
  const delivery = page.getByRole('region', { name: `Delivery to @${handle}` });
  await expect(delivery.locator('header').getByText('Sent', { exact: true })).toBeVisible();
  const sent = await deliveryOf(text);
  expect(sent).toMatchObject({ status: 'sent', attempts: 1 });
  const [, rkey] = /^at:\/\/did:plc:[a-z2-7]+\/app\.bsky\.feed\.post\/([a-z2-7]{13})$/.exec(sent.external_id)!;
  expect(sent.external_id).toBe(`at://${did}/app.bsky.feed.post/${rkey}`);
  // A PDS outside the public network (this one is on localhost): no bsky.app page, the at:// URI is the link.
  expect(sent.external_url).toBe(sent.external_id);
  await expect(delivery.locator('header').getByText(sent.external_id, { exact: true })).toBeVisible();
  await expect(delivery.getByRole('link', { name: 'View on platform' })).toHaveCount(0);
  const copies = await sandboxCopies(text);
  expect(copies).toHaveLength(1);
  expect(copies[0]).toMatchObject({ kind: 'post', record_key: rkey, did });

  // A reply to it, by its platform id: one record whose parent and root are the post.
  const answer = `Replying on Bluesky ${randomUUID()}`;
  await postNowAndOpen(page, `@${handle}`, answer, { inReplyTo: sent.external_id });
  await expectDeliverySent(page, `@${handle}`);
  expect(await deliveryOf(answer)).toMatchObject({ status: 'sent', attempts: 1 });
  const replies = await sandboxCopies(answer);
  expect(replies).toHaveLength(1);
  expect(replies[0]!.kind).toBe('reply');
  const reply = replies[0]!.record.reply as { parent: { uri: string }; root: { uri: string } };
  expect(reply.parent.uri).toBe(sent.external_id);
  expect(reply.root.uri).toBe(sent.external_id);

  // An image with alt text: uploaded as a blob, then one record embedding it with its alt text.
  const image = await randomImage();
  const pictured = `A picture on Bluesky ${randomUUID()}`;
  await postNowAndOpen(page, `@${handle}`, pictured, { image });
  await expectDeliverySent(page, `@${handle}`);
  expect(await deliveryOf(pictured)).toMatchObject({ status: 'sent', attempts: 1 });
  await expectOneCopyWithImage(pictured, image);
  const [withImage] = await sandboxCopies(pictured);
  expect(withImage!.record.embed).toMatchObject({
    $type: 'app.bsky.embed.images',
    images: [{ alt: image.altText, image: { $type: 'blob', mimeType: 'image/jpeg' } }],
  });

  // A thread of 3 from the connected account: one record per part, each replying to the part before it.
  const tag = randomUUID().slice(0, 8);
  const parts = [`Bluesky thread ${tag}: one`, `Bluesky thread ${tag}: two`, `Bluesky thread ${tag}: three`];
  await threadNowAndOpen(page, `@${handle}`, parts);
  await expectThreadChain(page, `@${handle}`, 'Bluesky', parts);
});
