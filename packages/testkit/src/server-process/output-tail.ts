/** Longest line kept whole; a longer one is cut (a server dumping a blob must not flood an error). */
const MAX_LINE_CHARS = 2_000;

/**
 * The last lines a process wrote on stdout and stderr, interleaved in arrival order, each
 * prefixed with its stream: what a start failure quotes so a reader sees the server's own words.
 * Bounded: only the last `maxLines` complete lines are kept, plus each stream's unfinished line.
 */
export class OutputTail {
  readonly #lines: string[] = [];
  readonly #partial = { stdout: '', stderr: '' };

  constructor(private readonly maxLines = 40) {}

  /** Adds a chunk of `stream`; calls `onLine` for every line it completes. */
  push(stream: 'stdout' | 'stderr', chunk: string, onLine?: (line: string) => void): void {
    const pieces = (this.#partial[stream] + chunk).split('\n');
    this.#partial[stream] = pieces.pop()!.slice(-MAX_LINE_CHARS);
    for (const piece of pieces) {
      const line = piece.replace(/\r$/, '').slice(0, MAX_LINE_CHARS);
      this.#lines.push(`[${stream}] ${line}`);
      if (this.#lines.length > this.maxLines) this.#lines.shift();
      onLine?.(line);
    }
  }

  /** The kept lines, oldest first, then any unfinished line of each stream. */
  lines(): string[] {
    const unfinished = (['stdout', 'stderr'] as const).filter((stream) => this.#partial[stream] !== '').map((stream) => `[${stream}] ${this.#partial[stream]}`);
    return [...this.#lines, ...unfinished];
  }

  /** `lines()` joined, or a note that the process wrote nothing. */
  text(): string {
    const lines = this.lines();
    return lines.length > 0 ? lines.join('\n') : '(no output)';
  }
}
