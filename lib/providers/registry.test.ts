import { describe, expect, it } from 'vitest';
import { providerEnum } from '@/db/schema';
import { PROVIDER_META } from './catalog';
import type { ProviderDefinition } from './definition';
import { PROVIDERS } from './registry';
import type { ProviderName } from './types';

describe('the provider registry', () => {
  it('has one complete entry per network of the database enum, under its own name', () => {
    expect(Object.keys(PROVIDERS).sort()).toEqual([...providerEnum.enumValues].sort());
    for (const [name, entry] of Object.entries(PROVIDERS)) {
      expect(entry.name).toBe(name);
      expect(PROVIDER_META[name as ProviderName].label).toBe(entry.label);
      expect(entry.rateLimit.max).toBeGreaterThan(0);
      expect(entry.textLimit).toBeGreaterThan(0);
      expect(entry.exactlyOnce.length).toBeGreaterThan(40);
      // Every classification table ends with the catch-all row: nothing goes unclassified.
      expect(entry.rules.at(-1)?.id).toBe('unexpected');
    }
  });

  it('the compiler refuses an incomplete entry or a missing network (checked by npm run typecheck)', () => {
    const { x, mastodon, bluesky, linkedin } = PROVIDERS;
    const incomplete = Object.fromEntries(Object.entries(x).filter(([key]) => key !== 'reconcile')) as Omit<
      typeof x,
      'reconcile'
    >;
    // @ts-expect-error an entry without its reconciliation strategy is not a ProviderDefinition
    const notAnEntry: ProviderDefinition = incomplete;
    // @ts-expect-error a registry without `threads` does not cover the enum
    const missing: { [P in ProviderName]: ProviderDefinition } = { x, mastodon, bluesky, linkedin };
    expect([notAnEntry, missing]).toHaveLength(2);
  });
});
