/** Why a stream was refused: which cap it met, and that cap. */
export interface EventStreamRefusal {
  scope: 'total' | 'address';
  limit: number;
}

/**
 * The caps on open event streams, in all and per source address. A stream holds its connection
 * (and a file descriptor) for as long as it runs, which the connection timeouts never end: 256
 * streams that never read once held every connection 127.0.0.1 may open, locking every other
 * local client out. With one bearer token, the total is also the cap per token; a cap of its own
 * per token comes with scoped API keys (issue 35), when there are tokens to tell apart.
 */
export class EventStreamSlots {
  #open = 0;
  readonly #openByAddress = new Map<string, number>();

  constructor(
    readonly maxStreams: number,
    readonly maxStreamsPerAddress: number,
  ) {}

  /** Takes a place for a stream from `address` (release it when the stream ends; idempotent), or says which cap refuses it. */
  take(address: string): { release: () => void } | EventStreamRefusal {
    const fromAddress = this.#openByAddress.get(address) ?? 0;
    if (fromAddress >= this.maxStreamsPerAddress) return { scope: 'address', limit: this.maxStreamsPerAddress };
    if (this.#open >= this.maxStreams) return { scope: 'total', limit: this.maxStreams };
    this.#open += 1;
    this.#openByAddress.set(address, fromAddress + 1);
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.#open -= 1;
        const left = (this.#openByAddress.get(address) ?? 1) - 1;
        if (left === 0) this.#openByAddress.delete(address);
        else this.#openByAddress.set(address, left);
      },
    };
  }

  /** Streams open now. */
  get open(): number {
    return this.#open;
  }
}
