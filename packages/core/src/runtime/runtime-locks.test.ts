import { describe, expect, it } from 'vitest';
import { SessionBusyError } from '../errors/runtime-state-errors';
import { RuntimeLocks } from './runtime-locks';

describe('RuntimeLocks', () => {
  it('shared holders coexist and block an exclusive holder until all release', () => {
    const locks = new RuntimeLocks();
    const first = locks.acquire('r', 'shared');
    const second = locks.acquire('r', 'shared');
    expect(() => locks.acquire('r', 'exclusive')).toThrow(SessionBusyError);
    first();
    expect(() => locks.acquire('r', 'exclusive')).toThrow(SessionBusyError);
    second();
    expect(locks.isHeld('r')).toBe(false);
    locks.acquire('r', 'exclusive')();
  });

  it('an exclusive holder fails everything else fast, on that runtime only', () => {
    const locks = new RuntimeLocks();
    const release = locks.acquire('r', 'exclusive');
    expect(() => locks.acquire('r', 'shared')).toThrow(SessionBusyError);
    expect(() => locks.acquire('r', 'checkout')).toThrow(SessionBusyError);
    expect(() => locks.acquire('r', 'exclusive')).toThrow(SessionBusyError);
    locks.acquire('other', 'shared')();
    release();
    release();
    expect(locks.heldRuntimeIds()).toEqual([]);
  });

  it('checkouts in flight admit other checkouts and data operations, refuse control operations, and do not read as running', () => {
    const locks = new RuntimeLocks();
    const first = locks.acquire('r', 'checkout');
    const second = locks.acquire('r', 'checkout');
    expect(locks.isHeld('r')).toBe(false);
    expect(locks.heldRuntimeIds()).toEqual([]);
    const data = locks.acquire('r', 'shared');
    expect(locks.isHeld('r')).toBe(true);
    data();
    expect(() => locks.acquire('r', 'exclusive')).toThrow(/a checkout of its checkpoint is in flight/);
    first();
    second();
    locks.acquire('r', 'exclusive')();
  });

  it('a checkout arriving while a data operation runs is refused (the source must be idle when it arrives)', () => {
    const locks = new RuntimeLocks();
    const data = locks.acquire('r', 'shared');
    expect(() => locks.acquire('r', 'checkout')).toThrow(/an operation is in flight/);
    data();
    locks.acquire('r', 'checkout')();
  });
});
