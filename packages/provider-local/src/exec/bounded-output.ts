const INITIAL_BYTES = 16 * 1024;

/**
 * Keeps the first `limitBytes` of a stream and counts the rest without storing it, so a command
 * printing gigabytes costs at most `limitBytes` of memory. Bytes are copied into one growing
 * buffer: pipe chunks are never retained (a small chunk can pin a much larger allocation).
 */
export class BoundedOutput {
  #buffer: Buffer;
  #length = 0;
  #truncated = false;

  constructor(private readonly limitBytes: number) {
    this.#buffer = Buffer.allocUnsafe(Math.min(limitBytes, INITIAL_BYTES));
  }

  /** True once more than `limitBytes` arrived. */
  get truncated(): boolean {
    return this.#truncated;
  }

  push(chunk: Buffer): void {
    const room = this.limitBytes - this.#length;
    const take = Math.min(room, chunk.length);
    if (take < chunk.length) this.#truncated = true;
    if (take === 0) return;
    this.#reserve(this.#length + take);
    chunk.copy(this.#buffer, this.#length, 0, take);
    this.#length += take;
  }

  bytes(): Uint8Array {
    return this.#buffer.subarray(0, this.#length);
  }

  #reserve(needed: number): void {
    if (needed <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.min(this.limitBytes, Math.max(needed, this.#buffer.length * 2)));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.#buffer = grown;
  }
}
