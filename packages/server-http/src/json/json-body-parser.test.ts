import { describe, expect, it } from 'vitest';
import { jsonNestingExceeds } from './json-body-parser';

describe('jsonNestingExceeds', () => {
  it('counts nested arrays and objects, up to and past the limit', () => {
    expect(jsonNestingExceeds('[[[]]]', 3)).toBe(false);
    expect(jsonNestingExceeds('[[[[]]]]', 3)).toBe(true);
    expect(jsonNestingExceeds('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(false);
    expect(jsonNestingExceeds('{"a":{"b":[1,{"c":{}}]}}', 4)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestingExceeds(`{"a":"${'['.repeat(50)}"}`, 2)).toBe(false);
    expect(jsonNestingExceeds(`{"a":"\\"${'{'.repeat(50)}"}`, 2)).toBe(false);
    expect(jsonNestingExceeds(`{"a":"\\\\",${'['.repeat(3)}]]]}`, 3)).toBe(true);
  });

  it('siblings do not add up: depth falls back when a level closes', () => {
    expect(jsonNestingExceeds(`[${'[[]],'.repeat(1000)}[]]`, 3)).toBe(false);
  });
});
