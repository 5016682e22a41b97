import { expect } from 'vitest';
import type { z } from 'zod';

/**
 * The JSON a command printed is exactly the API's documented shape: it parses with core's
 * schema and carries no key the schema lacks, nor lacks one it requires (an optional key, such
 * as a checkpoint's `skipped_paths`, is there only when it has something to say).
 */
export function expectShape<S extends z.ZodObject>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  expect(parsed.error?.issues ?? []).toEqual([]);
  const keys = Object.keys(value as object);
  const expected = Object.entries(schema.shape)
    .filter(([key, field]) => keys.includes(key) || !(field as z.ZodType).safeParse(undefined).success)
    .map(([key]) => key);
  expect(keys.sort()).toEqual(expected.sort());
  return parsed.data!;
}
