import type * as Crypto from 'node:crypto';
import { BearerTokenVerifier } from '@runtimectl/server-http';
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Constant-time token comparison, proven without timing anything: every well-formed Bearer
// header, whatever its token (empty, one character, a prefix of the real one, the real one with
// its last character changed, a megabyte), costs exactly one crypto.timingSafeEqual over two
// buffers of the configured token's size, and no other comparison involves the secret's
// content. Timings on a loaded machine would prove nothing either way; the call pattern does.
const comparisons: Array<{ left: number; right: number }> = [];

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof Crypto>();
  return {
    ...original,
    timingSafeEqual: (left: NodeJS.ArrayBufferView, right: NodeJS.ArrayBufferView) => {
      comparisons.push({ left: left.byteLength, right: right.byteLength });
      return original.timingSafeEqual(left, right);
    },
  };
});

const TOKEN = 'token-comparison-secret-0123456789abcdef';
const TOKEN_BYTES = Buffer.byteLength(TOKEN);

beforeEach(() => {
  comparisons.length = 0;
});

describe('bearer token comparison', () => {
  it('the verifier accepts the token (any scheme case) and nothing else', () => {
    const verifier = new BearerTokenVerifier(TOKEN);
    expect(verifier.verify(`Bearer ${TOKEN}`)).toBe(true);
    expect(verifier.verify(`bearer ${TOKEN}`)).toBe(true);
    expect(verifier.verify(`BEARER ${TOKEN}`)).toBe(true);
    for (const header of [undefined, '', 'Bearer', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `${TOKEN}`, `Bearer ${TOKEN} ${TOKEN}`]) {
      expect(verifier.verify(header), String(header)).toBe(false);
    }
  });

  it('every Bearer token, right or wrong, of any length, costs one timingSafeEqual over two buffers of the configured token’s size', () => {
    const verifier = new BearerTokenVerifier(TOKEN);
    const near = [TOKEN.slice(0, -1), `${TOKEN.slice(0, -1)}X`, `X${TOKEN.slice(1)}`, `${TOKEN}0`, TOKEN.toUpperCase(), 'x', 'x'.repeat(1_000_000)];
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(TOKEN, ...near), fc.stringMatching(/^[!-~]{1,200}$/)), (token) => {
        comparisons.length = 0;
        const accepted = verifier.verify(`Bearer ${token}`);
        expect(accepted).toBe(token === TOKEN);
        expect(comparisons, `one comparison for a ${token.length}-character token`).toEqual([{ left: TOKEN_BYTES, right: TOKEN_BYTES }]);
      }),
      { numRuns: 500 },
    );
  });

  it('malformed headers are refused before any comparison (no secret involved)', () => {
    const verifier = new BearerTokenVerifier(TOKEN);
    for (const header of ['', 'Bearer', 'Bearer ', `Basic ${TOKEN}`, `Token ${TOKEN}`, TOKEN, `Bearer ${TOKEN} extra`]) {
      expect(verifier.verify(header)).toBe(false);
    }
    expect(comparisons).toEqual([]);
  });
});
