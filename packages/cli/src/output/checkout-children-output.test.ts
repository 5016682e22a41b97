import type { CheckoutChildResult } from '@runtimectl/core';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../errors/exit-codes';
import { childLines, childrenExitCode } from './checkout-children-output';

const runtime = (id: string) => ({ runtime_id: id, conversation_id: 'c', sender_id: 's', status: 'idle' as const, created_at_ms: 1, updated_at_ms: 1 });
const results: CheckoutChildResult[] = [
  { runtime: runtime('a:checkout:1') },
  { error: { code: 'provider_capacity', message: 'e2b create refused for capacity' } },
  { runtime: runtime('a:checkout:2') },
];

describe('N-way checkout output', () => {
  it('prints one line per child: its id, or its error code and message', () => {
    expect(childLines(results, (id) => id)).toEqual(['a:checkout:1', 'error provider_capacity: e2b create refused for capacity', 'a:checkout:2']);
  });

  it('exits 0 when every child was made, else with the exit code of the first failed child', () => {
    expect(childrenExitCode([results[0]!, results[2]!])).toBe(EXIT_CODES.ok);
    expect(childrenExitCode(results)).toBe(EXIT_CODES.conflict);
  });
});
