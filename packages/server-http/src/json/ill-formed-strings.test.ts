import { describe, expect, it } from 'vitest';
import { findIllFormedString } from './ill-formed-strings';

describe('findIllFormedString', () => {
  it('finds a lone surrogate in a value or a key at any depth, through arrays, with its path', () => {
    expect(findIllFormedString(JSON.parse('{"conversation_id":"c\\ud800"}'))).toEqual(['conversation_id']);
    expect(findIllFormedString(JSON.parse('{"a":[1,{"b":"x\\udc00y"}]}'))).toEqual(['a', 1, 'b']);
    expect(findIllFormedString(JSON.parse('{"m":{"k\\ud800":1}}'))).toEqual(['m', 'k\ud800']);
    expect(findIllFormedString('\ud800')).toEqual([]);
  });

  it('accepts well-formed text, surrogate pairs included', () => {
    expect(findIllFormedString(JSON.parse('{"a":"c\\ud83d\\ude00","b":["é",null,2,true]}'))).toBeUndefined();
  });
});
