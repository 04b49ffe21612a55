import { randomUUID } from 'node:crypto';
import { e2eSql } from './db';

/**
 * A new member of a workspace (the demo one unless named) with the demo password (the viewer's hash) and nothing else: a spec that gives it
 * a second factor changes no other spec's sign-in.
 */
export async function newMember(
  role: 'viewer' | 'manager' | 'admin' = 'viewer',
  { domain = 'two-factor.test', workspace = 'demo' }: { domain?: string; workspace?: string } = {},
) {
  const email = `member-${randomUUID().slice(0, 8)}@${domain}`;
  const sql = e2eSql();
  await sql`insert into users (email, name, password_hash)
    select ${email}, 'Two Factor', password_hash from users where email = 'viewer@demo.test'`;
  await sql`insert into memberships (workspace_id, user_id, role)
    select w.id, u.id, ${role} from workspaces w, users u where w.slug = ${workspace} and u.email = ${email}`;
  return email;
}
