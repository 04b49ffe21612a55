import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { signIn } from '../support/auth';
import { e2eSql } from '../support/db';

// Evergreen items (docs/content.md#evergreen-queues): a post the queue could never publish is refused when added, with
// the field's error; one passed over at its turn says why beside it; editing it gives that turn back; removing it
// takes it out of the queue. The queue is paused, so the server's own evergreen job leaves it alone meanwhile.

test('an evergreen post: refused when too long, its passed-over turn explained, edited and removed', async ({
  page,
}) => {
  const tag = randomUUID().slice(0, 8);
  const sql = e2eSql();
  const [queue] = await sql<{ id: string }[]>`
    insert into evergreen_queues (workspace_id, name, account_ids, paused)
    select w.id, ${`Tips ${tag}`}, array[a.id], true
    from workspaces w join social_accounts a on a.workspace_id = w.id and a.handle = '@demo_brand'
    where w.slug = 'demo'
    returning id`;
  // An item stored before items were checked, passed over at its turn of cycle 1 with the reason.
  const [long] = await sql<{ id: string }[]>`
    insert into evergreen_items (queue_id, workspace_id, position, text)
    select id, workspace_id, 0, ${'Too long '.repeat(40)} from evergreen_queues where id = ${queue!.id}
    returning id`;
  await sql`insert into evergreen_items (queue_id, workspace_id, position, text)
    select id, workspace_id, 1, ${`Second tip ${tag}`} from evergreen_queues where id = ${queue!.id}`;
  await sql`insert into evergreen_fires (queue_id, item_id, cycle, skipped, skip_reason)
    values (${queue!.id}, ${long!.id}, 1, true, '359/280 characters: too long for @demo_brand')`;

  await signIn(page, 'manager@demo.test');
  await page.goto('/evergreen');
  const card = page.getByRole('region', { name: `Tips ${tag}` });
  await expect(card.getByText('Not posted, passed over: 359/280 characters: too long for @demo_brand')).toBeVisible();

  // Adding a post X could never publish: refused at once, beside the field.
  const tooLong = `Far too long ${tag} `.repeat(20).trim();
  await card.getByLabel('New post').fill(tooLong);
  await card.getByRole('button', { name: `Add to Tips ${tag}` }).click();
  await expect(card.getByText(/^The text: \d+\/280 characters, too long for @demo_brand$/)).toBeVisible();
  await expect(card.getByLabel('New post')).toHaveAttribute('aria-invalid', 'true');
  await expect(card.getByLabel('New post')).toHaveValue(tooLong); // kept, to be shortened
  expect(await sql`select 1 from evergreen_items where queue_id = ${queue!.id} and text = ${tooLong}`).toHaveLength(0);

  // Edited to fit: its turn of this cycle is given back.
  const first = card
    .getByRole('list', { name: `Posts of Tips ${tag}` })
    .getByRole('listitem')
    .first();
  await expect(first).toContainText('Too long Too long');
  await first.getByText('Edit', { exact: true }).click();
  await first.getByLabel('Text', { exact: true }).fill(`Short tip ${tag}`);
  await first.getByRole('button', { name: 'Save' }).click();
  await expect(first.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(card.getByRole('paragraph').filter({ hasText: `Short tip ${tag}` })).toBeVisible();
  await expect(card.getByText(/Not posted, passed over/)).toHaveCount(0);
  const fires = await sql`select 1 from evergreen_fires where item_id = ${long!.id}`;
  expect(fires).toHaveLength(0);

  await card.getByRole('button', { name: `Remove: Second tip ${tag}` }).click();
  await expect(card.getByText(`Second tip ${tag}`)).toHaveCount(0);
  const items = await sql<{ text: string }[]>`select text from evergreen_items where queue_id = ${queue!.id}`;
  expect(items.map((i) => i.text)).toEqual([`Short tip ${tag}`]);
});
