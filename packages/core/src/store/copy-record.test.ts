import { describe, expect, it } from 'vitest';
import { copyRecord } from './copy-record';

describe('copyRecord', () => {
  it('copies a JSON-shaped record deeply: equal, but sharing no object or array with the original', () => {
    const record = {
      id: 'rt-1',
      count: 3,
      flag: false,
      nothing: null,
      absent: undefined,
      nested: { list: [1, 'two', { three: [3] }], empty: {} },
    };
    const copy = copyRecord(record);
    expect(copy).toStrictEqual(record);
    expect(copy).not.toBe(record);
    expect(copy.nested).not.toBe(record.nested);
    expect(copy.nested.list).not.toBe(record.nested.list);
    expect(copy.nested.list[2]).not.toBe(record.nested.list[2]);
    (copy.nested.list[2] as { three: number[] }).three.push(4);
    expect(record.nested.list[2]).toStrictEqual({ three: [3] });
  });

  it('returns primitives and null as they are', () => {
    for (const value of ['text', 0, -1.5, true, null, undefined]) expect(copyRecord(value)).toBe(value);
  });

  it('gives copies the plain prototype, so a copied record compares equal to a literal', () => {
    const copy = copyRecord(JSON.parse('{"a":{"b":[{"c":1}]}}') as unknown);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toStrictEqual({ a: { b: [{ c: 1 }] } });
  });
});
