import type { Sandbox } from 'e2b';

/**
 * Streams a sandbox file out (`files.read(path, {format:'stream'})`). The request deadline
 * applies until the response starts, not to the whole body: a large export may stream for as
 * long as its reader keeps reading. Errors while streaming pass through `mapError`. An empty
 * file needs no request at all.
 */
export async function streamFile(
  sandbox: Sandbox,
  path: string,
  sizeBytes: number,
  requestTimeoutMs: number,
  user: string,
  mapError: (error: unknown) => Error,
): Promise<AsyncIterable<Uint8Array>> {
  if (sizeBytes === 0) return (async function* empty() {})();
  const abort = new AbortController();
  const startTimer = setTimeout(() => abort.abort(new DOMException('the export did not start in time', 'TimeoutError')), requestTimeoutMs);
  let stream: ReadableStream<Uint8Array>;
  try {
    stream = await sandbox.files.read(path, { format: 'stream', requestTimeoutMs: 0, user, signal: abort.signal });
  } finally {
    clearTimeout(startTimer);
  }
  return (async function* chunks() {
    const reader = stream.getReader();
    let finished = false;
    try {
      for (;;) {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (error) {
          throw mapError(error);
        }
        if (next.done) {
          finished = true;
          return;
        }
        yield next.value;
      }
    } finally {
      // A reader that stopped early: free the connection.
      if (!finished) await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  })();
}
