import { describe, expect, it } from 'vitest';
import { findPrototypeKey, prototypeKeyRefusal } from './prototype-keys';

describe('findPrototypeKey', () => {
  it('finds an own __proto__ key at any depth, through arrays, with its path', () => {
    expect(findPrototypeKey(JSON.parse('{"__proto__":{}}'))).toEqual({ key: '__proto__', path: ['__proto__'] });
    expect(findPrototypeKey(JSON.parse('{"a":[1,{"b":{"__proto__":null}}]}'))).toEqual({ key: '__proto__', path: ['a', 1, 'b', '__proto__'] });
  });

  it('finds constructor.prototype but allows a constructor key without prototype', () => {
    expect(findPrototypeKey(JSON.parse('{"x":{"constructor":{"prototype":1}}}'))).toEqual({ key: 'constructor.prototype', path: ['x', 'constructor', 'prototype'] });
    expect(findPrototypeKey(JSON.parse('{"constructor":"ok","proto":1,"prototype":{}}'))).toBeUndefined();
  });
});

describe('prototypeKeyRefusal', () => {
  it('names the key and its place, and leaves invalid or harmless JSON to the parser', () => {
    const refusal = prototypeKeyRefusal('{"metadata":{"__proto__":{"admin":true}}}');
    expect(refusal?.message).toMatch(/^the JSON body has a "__proto__" key at metadata\.__proto__: refused because .*prototype poisoning/);
    expect(refusal?.details).toEqual({ key: '__proto__', path: ['metadata', '__proto__'] });
    expect(prototypeKeyRefusal('{"metadata": ')).toBeUndefined();
    expect(prototypeKeyRefusal('{"metadata":{}}')).toBeUndefined();
  });
});
