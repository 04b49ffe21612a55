import { expect, type Page } from '@playwright/test';

/** Connects a one-click sandbox account on /accounts as the signed-in admin; returns its handle. */
export async function connectSandboxAccount(page: Page, provider: 'X' | 'Mastodon'): Promise<string> {
  await page.goto('/accounts');
  const form = page.getByRole('form', { name: 'Sandbox account', exact: true });
  await form.getByRole('button', { name: `Connect sandbox ${provider} account` }).click();
  const status = form.getByRole('status');
  await expect(status).toContainText('Connected sandbox account');
  const handle = /account (@\S+)\.$/.exec((await status.textContent()) ?? '')?.[1];
  expect(handle).toBeTruthy();
  await expect(
    page
      .getByRole('list', { name: 'Connected accounts', exact: true })
      .getByRole('listitem', { name: handle!, exact: true }),
  ).toBeVisible();
  return handle!;
}
