import { describe, expect, it } from 'vitest';
import { SessionBusyError } from '../errors/runtime-state-errors';
import { RuntimeLocks } from './runtime-locks';

describe('RuntimeLocks', () => {
  it('shared holders coexist and block an exclusive holder until all release', () => {
    const locks = new RuntimeLocks();
    const first = locks.acquireShared('r');
    const second = locks.acquireShared('r');
    expect(() => locks.acquireExclusive('r')).toThrow(SessionBusyError);
    first();
    expect(() => locks.acquireExclusive('r')).toThrow(SessionBusyError);
    second();
    expect(locks.isHeld('r')).toBe(false);
    locks.acquireExclusive('r')();
  });

  it('an exclusive holder fails everything else fast, on that runtime only', () => {
    const locks = new RuntimeLocks();
    const release = locks.acquireExclusive('r');
    expect(() => locks.acquireShared('r')).toThrow(SessionBusyError);
    expect(() => locks.acquireExclusive('r')).toThrow(SessionBusyError);
    locks.acquireShared('other')();
    release();
    release();
    expect(locks.heldRuntimeIds()).toEqual([]);
  });
});
