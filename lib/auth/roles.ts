import type { Role } from '@/db/queries/workspaces';

export type { Role };

const RANK: Record<Role, number> = { viewer: 0, manager: 1, admin: 2 };

/** Viewers read; managers also compose and schedule; admins also manage accounts, members and review. */
export function hasRole(actual: Role, required: Role): boolean {
  return RANK[actual] >= RANK[required];
}
