import { describe, expect, it } from 'vitest';
import { ProviderIdSchema } from './runtime-lifecycle';

describe('ProviderIdSchema', () => {
  it('accepts every provider id a daemon configures, underscores included, and the hyphenated ones', () => {
    for (const id of ['local', 'e2b', 'acme_dirs', 'my-provider']) expect(ProviderIdSchema.safeParse(id).success, id).toBe(true);
  });

  it('refuses what is no provider id', () => {
    for (const id of ['', 'Local', '1st', '_x', 'a b', 'a'.repeat(65)]) expect(ProviderIdSchema.safeParse(id).success, id).toBe(false);
  });
});
