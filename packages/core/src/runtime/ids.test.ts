import { describe, expect, it } from 'vitest';
import { checkoutRoot, createIdGenerator, timeOrderedHexFactory } from './ids';

describe('ids', () => {
  it('generated ids have the documented shapes', () => {
    const ids = createIdGenerator();
    expect(ids.runtimeId()).toMatch(/^rt_[0-9a-f]{32}$/);
    expect(ids.checkpointId()).toMatch(/^rtcp_[0-9a-f]{32}$/);
    expect(ids.backendId()).toMatch(/^bkd_[0-9a-f]{32}$/);
    expect(ids.backendCheckpointId()).toMatch(/^bcp_[0-9a-f]{32}$/);
    expect(ids.checkoutChildId('agent')).toMatch(/^agent:checkout:[0-9a-f]{32}$/);
  });

  it('ids stay unique across many refills of the random pool', () => {
    const ids = createIdGenerator();
    const generated = Array.from({ length: 5000 }, () => ids.backendId());
    expect(new Set(generated).size).toBe(generated.length);
  });

  it('a checkout child of a checkout child keeps the root', () => {
    const ids = createIdGenerator();
    const child = ids.checkoutChildId('agent');
    expect(checkoutRoot(child)).toBe('agent');
    expect(ids.checkoutChildId(child)).toMatch(/^agent:checkout:[0-9a-f]{32}$/);
  });

  it('time-ordered ids sort in creation order even within one millisecond and when the clock steps back', () => {
    let now = 1_700_000_000_000;
    const next = timeOrderedHexFactory(() => now);
    const ids = [next(), next(), next()];
    now -= 5;
    ids.push(next());
    now += 10;
    ids.push(next());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
