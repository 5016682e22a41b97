import { describe, expect, it } from 'vitest';
import { decodeMetadataQuery, matchesMetadata } from './metadata-query.js';

/** What the e2b SDK (2.51.0) puts in the `metadata` query value, before the outer URL encoding. */
function sdkEncoding(metadata: Record<string, string>): string {
  const pairs = Object.fromEntries(Object.entries(metadata).map(([key, value]) => [encodeURIComponent(key), encodeURIComponent(value)]));
  return new URLSearchParams(pairs).toString();
}

describe('decodeMetadataQuery', () => {
  it('undoes the SDK double encoding, including &, = and spaces in keys and values', () => {
    const metadata = { owner: 'rcc', 'k y': 'v&1', 'a=b': '100%' };
    expect(sdkEncoding(metadata)).toBe('owner=rcc&k%2520y=v%25261&a%253Db=100%2525');
    expect(decodeMetadataQuery(sdkEncoding(metadata))).toEqual(metadata);
  });

  it('treats an absent filter as matching everything', () => {
    expect(decodeMetadataQuery(null)).toBeUndefined();
    expect(matchesMetadata({ a: '1' }, undefined)).toBe(true);
    expect(matchesMetadata({ a: '1', b: '2' }, { a: '1' })).toBe(true);
    expect(matchesMetadata({ a: '1' }, { a: '2' })).toBe(false);
  });
});
