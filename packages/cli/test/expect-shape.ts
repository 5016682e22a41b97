import { expect } from 'vitest';
import type { z } from 'zod';

/**
 * The JSON a command printed is exactly the API's documented shape: it parses with core's
 * schema and carries no key the schema lacks (nor lacks one it has).
 */
export function expectShape<S extends z.ZodObject>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(Object.keys(value as object).sort()).toEqual(Object.keys(schema.shape).sort());
  return parsed.data!;
}
