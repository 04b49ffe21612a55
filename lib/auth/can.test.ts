import { describe, expect, it } from 'vitest';
import { CAPABILITIES, can, requiredRole, type Capability } from './can';
import type { Role } from './roles';

// Written out by hand, not derived from the table: a capability moved to another role must fail a row here.
const EXPECTED: Record<Capability, Record<Role, boolean>> = {
  read: { viewer: true, manager: true, admin: true },
  compose: { viewer: false, manager: true, admin: true },
  edit: { viewer: false, manager: true, admin: true },
  cancel: { viewer: false, manager: true, admin: true },
  manageAccounts: { viewer: false, manager: false, admin: true },
  manageMembers: { viewer: false, manager: false, admin: true },
  manageWorkspace: { viewer: false, manager: false, admin: true },
  manageApiKeys: { viewer: false, manager: false, admin: true },
  manageWebhooks: { viewer: false, manager: false, admin: true },
  review: { viewer: false, manager: false, admin: true },
  approve: { viewer: false, manager: false, admin: true },
  sandboxControl: { viewer: false, manager: false, admin: true },
  answer: { viewer: false, manager: true, admin: true },
};

describe('can(role, capability): a row per capability and role', () => {
  it('the table and the expectations list the same capabilities', () => {
    expect(Object.keys(CAPABILITIES).sort()).toEqual(Object.keys(EXPECTED).sort());
  });
  for (const [capability, byRole] of Object.entries(EXPECTED) as [Capability, Record<Role, boolean>][]) {
    for (const [role, allowed] of Object.entries(byRole) as [Role, boolean][]) {
      it(`${role} ${allowed ? 'may' : 'may not'} ${capability}`, () => expect(can(role, capability)).toBe(allowed));
    }
    it(`${capability} needs ${requiredRole(capability)} at least`, () => {
      const least = (['viewer', 'manager', 'admin'] as const).find((r) => byRole[r]);
      expect(requiredRole(capability)).toBe(least);
    });
  }
});
