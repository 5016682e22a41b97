import { describe, expect, it } from 'vitest';
import { BearerTokenVerifier } from './bearer-auth';

describe('BearerTokenVerifier', () => {
  const token = 's3cret-token';

  it('accepts exactly `Bearer <token>`, the scheme in any case', () => {
    const verifier = new BearerTokenVerifier(token);
    for (const header of [`Bearer ${token}`, `bearer ${token}`, `BEARER\t${token}  `]) expect(verifier.verify(header), header).toBe(true);
  });

  it('refuses credentials that only start or end like the token, or contain it', () => {
    const verifier = new BearerTokenVerifier(token);
    expect(verifier.verify(`Bearer ${token}`)).toBe(true);
    for (const credentials of [token.slice(0, -1), `${token}x`, `${token}${token}`, token.slice(1), 's']) {
      expect(verifier.verify(`Bearer ${credentials}`), credentials).toBe(false);
    }
  });

  it('compares bytes, so credentials with the same byte length but other characters are refused', () => {
    const verifier = new BearerTokenVerifier('ab');
    expect(verifier.verify('Bearer é')).toBe(false); // 'é' is two bytes in UTF-8
    expect(new BearerTokenVerifier('é-token').verify('Bearer é-token')).toBe(true);
  });

  it('refuses a missing header, another scheme and a malformed one', () => {
    const verifier = new BearerTokenVerifier(token);
    for (const header of [undefined, `Basic ${token}`, token, 'Bearer', `Bearer ${token} extra`]) expect(verifier.verify(header), String(header)).toBe(false);
  });

  it('refuses to be built with an empty token', () => {
    expect(() => new BearerTokenVerifier('')).toThrow(TypeError);
  });
});
