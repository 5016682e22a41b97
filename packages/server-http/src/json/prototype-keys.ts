import { InvalidRequestError } from '@runtimectl/core';

/** Where a key that fastify's prototype-poisoning guard refuses sits in a parsed JSON value. */
export interface PrototypeKey {
  /** `__proto__`, or `constructor.prototype`. */
  key: string;
  /** Path from the body's root to the refused key (object keys and array indexes). */
  path: Array<string | number>;
}

const hasOwn = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key);

/**
 * The first key secure-json-parse refuses (the rule fastify applies to every JSON body): an own
 * `__proto__` key, or a `constructor` object with an own `prototype` key. `value` comes from
 * `JSON.parse`, which keeps `__proto__` as an ordinary own property. Depth is bounded by the
 * parser's nesting check, so the recursion cannot overflow.
 */
export function findPrototypeKey(value: unknown, path: Array<string | number> = []): PrototypeKey | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findPrototypeKey(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (hasOwn(value, '__proto__')) return { key: '__proto__', path: [...path, '__proto__'] };
  const record = value as Record<string, unknown>;
  const constructor = hasOwn(value, 'constructor') ? record.constructor : undefined;
  if (typeof constructor === 'object' && constructor !== null && hasOwn(constructor, 'prototype')) {
    return { key: 'constructor.prototype', path: [...path, 'constructor', 'prototype'] };
  }
  for (const key of Object.keys(record)) {
    const found = findPrototypeKey(record[key], [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * Why valid JSON `text` was refused, when the reason is a prototype key; undefined when `text`
 * is not valid JSON at all (or holds no such key), so the caller keeps fastify's own answer.
 */
export function prototypeKeyRefusal(text: string): InvalidRequestError | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const found = findPrototypeKey(parsed);
  if (found === undefined) return undefined;
  const where = found.path.length > found.key.split('.').length ? ` at ${found.path.join('.')}` : '';
  return new InvalidRequestError(
    `the JSON body has a "${found.key}" key${where}: refused because such keys can change the prototype of the objects ` +
      'the server builds from the body (prototype poisoning); rename the key',
    { key: found.key, path: found.path },
  );
}
