import { FileTooLargeError } from '@runtimectl/provider';

/**
 * Reads a file's byte stream to its end, but never holds more than `maxBytes + 1` bytes:
 * `FileTooLargeError` as soon as there is more, and the rest of the stream is cancelled.
 */
export async function readStreamAtMost(stream: ReadableStream<Uint8Array>, maxBytes: number, path: string): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let finished = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        finished = true;
        return new Uint8Array(Buffer.concat(chunks, length));
      }
      length += next.value.byteLength;
      if (length > maxBytes) throw new FileTooLargeError(path, maxBytes);
      chunks.push(next.value);
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
