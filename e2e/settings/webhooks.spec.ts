import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { startWebhookReceiver, verifyStandardWebhook } from '../../testing/webhook-receiver';
import { signIn } from '../support/auth';
import { expectDeliverySent, postNowAndOpen } from '../support/compose';
import { e2eSql } from '../support/db';

test('an admin adds an endpoint, sends a test event to a real receiver and sees it in the log', async ({ page }) => {
  // The receiver listens on a free loopback port, reached as `localhost` (OUTBOUND_ALLOWED_HOSTS in playwright.config.ts).
  const receiver = await startWebhookReceiver();
  try {
    await signIn(page, 'admin@demo.test');
    await page.goto('/settings/webhooks');
    const url = `${receiver.url}/${randomUUID().slice(0, 8)}`;

    // An internal address is refused with a field error, and nothing is stored.
    await page.getByLabel('Endpoint URL').fill('http://169.254.169.254/latest/meta-data');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByText(/a cloud metadata address/)).toBeVisible();
    const [none] = await e2eSql()<{ n: number }[]>`
      select count(*)::int as n from webhook_endpoints where url like '%169.254.169.254%'`;
    expect(none!.n).toBe(0);

    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('new-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    const [stored] = await e2eSql()<{ sealed: string }[]>`
      select secret_sealed as sealed from webhook_endpoints where url = ${url}`;
    expect(stored!.sealed).not.toContain(secret.slice(6)); // sealed at rest

    await page.reload();
    await expect(page.getByText(secret)).toHaveCount(0); // shown once
    const endpoint = page.getByRole('listitem', { name: `Endpoint ${url}` });
    await endpoint.getByRole('button', { name: `Send test event to ${url}` }).click();
    const log = page.getByRole('table', { name: `Delivery log of ${url}` });
    await expect(log.getByRole('row').filter({ hasText: 'webhook.test' })).toContainText('Delivered');
    await expect(log.getByRole('row').filter({ hasText: 'webhook.test' })).toContainText('200');

    expect(receiver.received).toHaveLength(1);
    const [message] = receiver.received;
    expect(verifyStandardWebhook(secret, message!)).toBe(true);
    expect(JSON.parse(message!.body)).toMatchObject({ id: message!.id, type: 'webhook.test' });
    await expect(log).toContainText(message!.id);

    // Redeliver sends the same event again, with the same webhook-id.
    await log.getByRole('button', { name: 'Redeliver webhook.test #1' }).click();
    const row = log.getByRole('row').filter({ hasText: 'webhook.test' });
    await expect(row.getByRole('status')).toHaveText('Sent again with the same webhook-id.');
    await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible(); // two attempts
    expect(receiver.received.map((r) => r.id)).toEqual([message!.id, message!.id]);

    await endpoint.getByRole('button', { name: `Delete ${url}` }).click();
    await expect(page.getByRole('listitem', { name: `Endpoint ${url}` })).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});

test('a manager cannot see or add webhook endpoints', async ({ page }) => {
  await signIn(page, 'manager@demo.test');
  await page.goto('/settings/webhooks');
  await expect(page.getByText('Only admins can manage webhooks.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add endpoint' })).toHaveCount(0);
});

test('a real publish reaches the receiver as one signed delivery.sent; a disabled endpoint is sent nothing', async ({
  page,
}) => {
  test.slow();
  const receiver = await startWebhookReceiver();
  const url = `${receiver.url}/${randomUUID().slice(0, 8)}`;
  try {
    await signIn(page, 'admin@demo.test');
    await page.goto('/settings/webhooks');
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByRole('button', { name: 'Add endpoint' }).click(); // delivery.* events are checked by default
    const secret = (await page.getByTestId('new-secret').textContent())!.trim();

    const text = `Webhook proof ${randomUUID()}`;
    await postNowAndOpen(page, '@demo_brand · X', text);
    await expectDeliverySent(page, '@demo_brand');
    const [delivery] = await e2eSql()<{ id: string; externalId: string }[]>`
      select d.id, d.external_id as "externalId" from deliveries d join posts p on p.id = d.post_id
      where p.text = ${text}`;
    // The webhooks job runs every 5 s in the server: the event arrives without anyone pressing a button.
    const forDelivery = () =>
      receiver.received.filter(
        (r) => (JSON.parse(r.body) as { subject: string }).subject === `delivery:${delivery!.id}`,
      );
    await expect
      .poll(() => forDelivery().map((r) => JSON.parse(r.body).type), { timeout: 30_000 })
      .toContain('delivery.sent');
    const sent = forDelivery().filter((r) => JSON.parse(r.body).type === 'delivery.sent');
    expect(sent).toHaveLength(1);
    expect(verifyStandardWebhook(secret, sent[0]!)).toBe(true);
    expect(JSON.parse(sent[0]!.body).data).toMatchObject({
      deliveryId: delivery!.id,
      status: 'sent',
      externalId: delivery!.externalId,
    });
    await page.goto('/settings/webhooks');
    const log = page.getByRole('table', { name: `Delivery log of ${url}` });
    await expect(log.getByRole('row').filter({ hasText: sent[0]!.id })).toContainText('Delivered');

    // Disabled: the next publish writes no message for this endpoint (and so sends none).
    const endpoint = page.getByRole('listitem', { name: `Endpoint ${url}` });
    await endpoint.getByRole('button', { name: `Disable ${url}` }).click();
    await expect(endpoint.getByText('Disabled: nothing is sent', { exact: true })).toBeVisible();
    const quiet = `While disabled ${randomUUID()}`;
    await postNowAndOpen(page, '@demo_brand · X', quiet);
    await expectDeliverySent(page, '@demo_brand');
    const [counted] = await e2eSql()<{ n: number }[]>`
      select count(*)::int as n from webhook_messages m join webhook_events ev on ev.id = m.event_id
      join webhook_endpoints e on e.id = m.endpoint_id
      where e.url = ${url} and ev.subject = (select 'delivery:' || d.id from deliveries d join posts p on p.id = d.post_id where p.text = ${quiet})`;
    expect(counted!.n).toBe(0);
    await page.goto('/settings/webhooks');
    await page
      .getByRole('listitem', { name: `Endpoint ${url}` })
      .getByRole('button', { name: `Enable ${url}` })
      .click();
    await expect(
      page.getByRole('listitem', { name: `Endpoint ${url}` }).getByText('Enabled', { exact: true }),
    ).toBeVisible();
  } finally {
    await e2eSql()`delete from webhook_endpoints where url = ${url}`;
    await receiver.close();
  }
});
