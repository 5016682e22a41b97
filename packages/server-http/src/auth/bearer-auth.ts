import { timingSafeEqual } from 'node:crypto';

/** `Authorization: <scheme> <credentials>`; the scheme is matched case-insensitively (RFC 9110). */
const AUTHORIZATION = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)[ \t]+(\S+)[ \t]*$/;

/**
 * Checks `Authorization` headers against one configured bearer token in constant time. The
 * presented credentials are copied into a zeroed buffer of the token's size (longer ones cut
 * off) and compared with `timingSafeEqual`; their length is compared on its own, after the
 * content, whatever the content's outcome. So neither the token's content nor its length
 * leaks through timing, without hashing both sides on every request (a tenth of the cost).
 */
export class BearerTokenVerifier {
  readonly #expected: Buffer;
  /** Scratch space for the presented credentials; verify is synchronous, so one per verifier. */
  readonly #presented: Buffer;

  constructor(token: string) {
    if (token.length === 0) throw new TypeError('auth.bearerToken must be a non-empty string');
    this.#expected = Buffer.from(token, 'utf8');
    this.#presented = Buffer.alloc(this.#expected.length);
  }

  /** true only for `Bearer <the token>`; any other scheme, a missing or malformed header is false. */
  verify(header: string | undefined): boolean {
    if (header === undefined) return false;
    const match = AUTHORIZATION.exec(header);
    if (!match || match[1]!.toLowerCase() !== 'bearer') return false;
    const credentials = match[2]!;
    this.#presented.fill(0).write(credentials, 'utf8');
    const sameContent = timingSafeEqual(this.#presented, this.#expected);
    const sameLength = Buffer.byteLength(credentials, 'utf8') === this.#expected.length;
    return sameContent && sameLength;
  }
}
