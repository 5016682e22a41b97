/**
 * Watches a stream of text (a daemon's stderr) for secrets without keeping it whole: each chunk
 * is searched together with the end of the previous one, so a secret split across two chunks is
 * still found. Only a bounded tail is kept, for error messages.
 */
export class SecretWatch {
  readonly #secrets: string[];
  readonly #overlap: number;
  #carry = '';
  #tail = '';
  #bytes = 0;
  #lines = 0;
  readonly #found = new Set<string>();

  constructor(secrets: string[]) {
    this.#secrets = secrets.filter((secret) => secret.length > 0);
    this.#overlap = Math.max(0, ...this.#secrets.map((secret) => secret.length - 1));
  }

  feed(chunk: string): void {
    this.#bytes += Buffer.byteLength(chunk);
    for (let at = chunk.indexOf('\n'); at !== -1; at = chunk.indexOf('\n', at + 1)) this.#lines += 1;
    const window = this.#carry + chunk;
    for (const secret of this.#secrets) if (window.includes(secret)) this.#found.add(secret);
    this.#carry = this.#overlap > 0 ? window.slice(-this.#overlap) : '';
    this.#tail = (this.#tail + chunk).slice(-20_000);
  }

  /** Secrets seen so far (never printed by the suite: compare them, do not log them). */
  foundCount(): number {
    return this.#found.size;
  }

  bytes(): number {
    return this.#bytes;
  }

  lines(): number {
    return this.#lines;
  }

  /** Whether `text` occurs in the bounded tail (recent log lines). */
  tailIncludes(text: string): boolean {
    return this.#tail.includes(text);
  }

  tail(): string {
    return this.#tail;
  }
}
