import { FileTooLargeError } from '@runtimectl/provider';
import { shellQuote } from './exec/shell-quote';
import type { ReadWorkspaceFile, RunScript } from './sandbox-search';

/** Files fetched by one command. */
const BATCH_FILES = 32;
/** Files larger than this are read on their own through the file API (keeps a batch ≤ 8 MiB). */
const BATCH_FILE_MAX_BYTES = 256 * 1024;

/**
 * Reads the files grep must look at in batches: one command prints up to 32 of them
 * base64-encoded, instead of one envd request per file — against a remote sandbox each request
 * costs a round trip. Core's `grepFiles` reads the candidates in sorted order, so a miss fetches
 * the asked file and the next ones in that order. Larger files, and files the batch could not
 * read, are read singly with `readSingle`.
 */
export class BatchedFileReader {
  readonly #order: string[];
  readonly #cache = new Map<string, Uint8Array | undefined>();

  constructor(
    private readonly root: string,
    candidates: string[],
    private readonly run: RunScript,
    private readonly readSingle: ReadWorkspaceFile,
  ) {
    this.#order = [...candidates].sort();
  }

  async read(path: string, maxBytes?: number): Promise<Uint8Array | undefined> {
    if (!this.#cache.has(path)) await this.#fetchFrom(path);
    const cached = this.#cache.get(path);
    this.#cache.delete(path);
    if (cached && maxBytes !== undefined && cached.byteLength > maxBytes) throw new FileTooLargeError(path, maxBytes);
    return cached ?? (await this.readSingle(path, maxBytes));
  }

  async #fetchFrom(path: string): Promise<void> {
    const start = this.#order.indexOf(path);
    const batch = start === -1 ? [path] : this.#order.slice(start, start + BATCH_FILES);
    const lines = [
      `cd -- ${shellQuote(this.root)} 2>/dev/null || exit 0`,
      `for f in ${batch.map(shellQuote).join(' ')}; do`,
      `  if [ -f "$f" ] && [ ! -L "$f" ]; then printf 'f '; head -c ${BATCH_FILE_MAX_BYTES + 1} -- "$f" | base64 -w 0; printf '\\n'; else printf 'm\\n'; fi`,
      'done',
    ];
    const output = (await this.run(lines.join('\n'))).split('\n');
    batch.forEach((file, index) => {
      const line = output[index];
      if (line === undefined || !line.startsWith('f ')) return; // missing now, or the batch failed: read singly
      const bytes = Buffer.from(line.slice(2), 'base64');
      if (bytes.byteLength > BATCH_FILE_MAX_BYTES) return; // too large for a batch: read singly
      this.#cache.set(file, new Uint8Array(bytes));
    });
  }
}
