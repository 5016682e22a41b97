import { timingSafeEqual } from 'node:crypto';

/** `Authorization: <scheme> <credentials>`; the scheme is matched case-insensitively (RFC 9110). */
const AUTHORIZATION = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)[ \t]+(\S+)[ \t]*$/;

/** The credentials of `Authorization: Bearer <credentials>`; undefined for another scheme, or a missing or malformed header. */
export function bearerCredentials(header: string | undefined): string | undefined {
  const match = header === undefined ? null : AUTHORIZATION.exec(header);
  return match && match[1]!.toLowerCase() === 'bearer' ? match[2]! : undefined;
}

/**
 * Checks `Authorization` headers against one configured bearer token in constant time. The
 * presented credentials are compared with `timingSafeEqual` when they have the token's byte
 * length; otherwise the token is compared with itself, so the comparison always takes the same
 * time and its outcome is thrown away. What else a check costs depends only on the presented
 * credentials (copying them), never on the token: neither its content nor its length leaks
 * through timing, without hashing both sides on every request (about a quarter of the cost).
 */
export class BearerTokenVerifier {
  readonly #expected: Buffer;

  constructor(token: string) {
    if (token.length === 0) throw new TypeError('auth.bearerToken must be a non-empty string');
    this.#expected = Buffer.from(token, 'utf8');
  }

  /** true only for `Bearer <the token>`; any other scheme, a missing or malformed header is false. */
  verify(header: string | undefined): boolean {
    const credentials = bearerCredentials(header);
    if (credentials === undefined) return false;
    const presented = Buffer.from(credentials, 'utf8');
    const sameLength = presented.length === this.#expected.length;
    const sameContent = timingSafeEqual(sameLength ? presented : this.#expected, this.#expected);
    return sameLength && sameContent;
  }
}
