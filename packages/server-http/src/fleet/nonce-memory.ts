/** Nonces remembered at most; beyond, new requests are refused rather than old nonces forgotten. */
const MAX_REMEMBERED = 200_000;

/**
 * The nonces of signed peer requests seen within their validity, so a request captured on the
 * wire cannot be played again while its timestamp would still be accepted. Once its timestamp
 * is out of the window the request is refused by that alone, and its nonce is forgotten. Full
 * (an absurd rate of forwarded requests): it refuses rather than forget a nonce still valid.
 */
export class NonceMemory {
  readonly #expiresAtMs = new Map<string, number>();
  #prunedAtMs = 0;

  constructor(private readonly windowMs: number) {}

  /**
   * Records `nonce` from `from`, valid until `expiresAtMs`: true the first time, false when it
   * was seen before (a replay) or there is no room left.
   */
  firstUse(from: string, nonce: string, expiresAtMs: number, nowMs: number): boolean {
    this.#prune(nowMs);
    const key = `${from}\n${nonce}`;
    if (this.#expiresAtMs.has(key)) return false;
    if (this.#expiresAtMs.size >= MAX_REMEMBERED) return false;
    this.#expiresAtMs.set(key, expiresAtMs);
    return true;
  }

  /** At most once per window (or when full): drops the nonces whose requests the clock refuses anyway. */
  #prune(nowMs: number): void {
    if (nowMs - this.#prunedAtMs < this.windowMs && this.#expiresAtMs.size < MAX_REMEMBERED) return;
    this.#prunedAtMs = nowMs;
    for (const [key, expiresAtMs] of this.#expiresAtMs) if (expiresAtMs < nowMs) this.#expiresAtMs.delete(key);
  }
}
