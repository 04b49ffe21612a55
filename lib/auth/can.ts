import type { Role } from './roles';
import { hasRole } from './roles';

/**
 * What each role may do, in one table: actions, route handlers, pages and components ask `can(role, …)`
 * instead of comparing role names, so a capability moving to another role is a one-line change here.
 */
export const CAPABILITIES = {
  read: 'viewer',
  compose: 'manager',
  edit: 'manager',
  cancel: 'manager',
  manageAccounts: 'admin',
  manageMembers: 'admin',
  manageWorkspace: 'admin',
  manageApiKeys: 'admin',
  manageWebhooks: 'admin',
  review: 'admin',
  /** Approve posts or request changes ("Posts need approval"), and make or revoke client links. */
  approve: 'admin',
  sandboxControl: 'admin',
  /** Answer inbox items, assign them, mark them done, note on them, keep saved replies (docs/inbox.md). */
  answer: 'manager',
} as const satisfies Record<string, Role>;

export type Capability = keyof typeof CAPABILITIES;

/** The least role that holds a capability (for messages such as "needs admin"). */
export function requiredRole(capability: Capability): Role {
  return CAPABILITIES[capability];
}

export function can(role: Role, capability: Capability): boolean {
  return hasRole(role, CAPABILITIES[capability]);
}
