import { hash, timingSafeEqual } from 'node:crypto';

// One-shot hashing: a quarter of createHash().update().digest()'s cost, on every request.
const digest = (value: string) => hash('sha256', value, 'buffer');

/** `Authorization: <scheme> <credentials>`; the scheme is matched case-insensitively (RFC 9110). */
const AUTHORIZATION = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)[ \t]+(\S+)[ \t]*$/;

/**
 * Checks `Authorization` headers against one configured bearer token. Both sides are hashed
 * first so `timingSafeEqual` compares equal-length digests: neither the token's content nor
 * its length leaks through timing.
 */
export class BearerTokenVerifier {
  readonly #expected: Buffer;

  constructor(token: string) {
    if (token.length === 0) throw new TypeError('auth.bearerToken must be a non-empty string');
    this.#expected = digest(token);
  }

  /** true only for `Bearer <the token>`; any other scheme, a missing or malformed header is false. */
  verify(header: string | undefined): boolean {
    if (header === undefined) return false;
    const match = AUTHORIZATION.exec(header);
    if (!match || match[1]!.toLowerCase() !== 'bearer') return false;
    return timingSafeEqual(digest(match[2]!), this.#expected);
  }
}
