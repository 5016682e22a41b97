import { describe, expect, it } from 'vitest';
import { immutableCopy, isDeeplyFrozen } from './immutable-record';

const record = () => ({
  id: 'rt-1',
  count: 3,
  flag: false,
  nothing: null,
  absent: undefined,
  nested: { list: [1, 'two', { three: [3] }], empty: {} },
});

describe('immutableCopy', () => {
  it('copies a mutable record deeply and freezes every part: equal, sharing nothing with the original', () => {
    const original = record();
    const copy = immutableCopy(original);
    expect(copy).toStrictEqual(original);
    expect(copy).not.toBe(original);
    expect(copy.nested).not.toBe(original.nested);
    expect(copy.nested.list).not.toBe(original.nested.list);
    expect(copy.nested.list[2]).not.toBe(original.nested.list[2]);
    expect(isDeeplyFrozen(copy)).toBe(true);
    expect(Object.isFrozen(original)).toBe(false);
    expect(() => (copy.nested.list[2] as { three: number[] }).three.push(4)).toThrow(TypeError);
    expect(() => {
      (copy as { count: number }).count = 4;
    }).toThrow(TypeError);
  });

  it('returns a deeply frozen record as it is', () => {
    const frozen = immutableCopy(record());
    expect(immutableCopy(frozen)).toBe(frozen);
  });

  it('copies only the parts that can change: a new record spread from a stored one shares its frozen parts', () => {
    const stored = immutableCopy(record());
    const next = immutableCopy({ ...stored, count: 4 });
    expect(next).not.toBe(stored);
    expect(next.count).toBe(4);
    expect(next.nested).toBe(stored.nested);
    expect(isDeeplyFrozen(next)).toBe(true);
  });

  it('copies a frozen object that holds a mutable one, so no mutable part is ever shared', () => {
    const inner = { list: [1] };
    const shallow = Object.freeze({ inner });
    const copy = immutableCopy(shallow);
    expect(copy).not.toBe(shallow);
    expect(copy.inner).not.toBe(inner);
    inner.list.push(2);
    expect(copy.inner.list).toStrictEqual([1]);
  });

  it('returns primitives and null as they are', () => {
    for (const value of ['text', 0, -1.5, true, null, undefined]) expect(immutableCopy(value)).toBe(value);
  });

  it('gives copies the plain prototype, so a copied record compares equal to a literal', () => {
    const copy = immutableCopy(JSON.parse('{"a":{"b":[{"c":1}]}}') as unknown);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toStrictEqual({ a: { b: [{ c: 1 }] } });
  });
});
