/**
 * The response side of one Connect server-streaming call: HTTP 200 with
 * `application/connect+json`, one envelope per message, then the end-stream envelope.
 * Writes after the client went away are dropped, never thrown.
 */
import type { ServerResponse } from 'node:http';
import { encodeEnvelope, ENVELOPE_FLAG_END_STREAM, type ConnectRpcError } from './connect-framing.js';

export class ConnectStreamWriter {
  private ended = false;

  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, { 'content-type': 'application/connect+json' });
    // Send the headers now: the SDK waits for the response before it reads `start`.
    res.flushHeaders();
  }

  /** True once the stream was ended, dropped or the client disconnected. */
  get closed(): boolean {
    return this.ended || this.res.destroyed || this.res.writableEnded;
  }

  /** Sends one message envelope; false when the caller should wait for `onDrain`. */
  send(message: unknown): boolean {
    if (this.closed) return true;
    return this.res.write(encodeEnvelope(0, message));
  }

  /** Calls `resume` once the response buffer drained (or the client went away). */
  onDrain(resume: () => void): void {
    const done = (): void => {
      this.res.off('drain', done);
      this.res.off('close', done);
      resume();
    };
    this.res.on('drain', done);
    this.res.on('close', done);
  }

  /** Ends the stream with the end-stream envelope: `{}` on success, `{error}` otherwise. */
  end(error?: ConnectRpcError): void {
    if (this.closed) return;
    this.ended = true;
    const trailer = error ? { error: { code: error.connectCode, message: error.message } } : {};
    this.res.end(encodeEnvelope(ENVELOPE_FLAG_END_STREAM, trailer));
  }

  /** Tears the connection down without an end-stream envelope (fault injection). */
  reset(): void {
    if (this.closed) return;
    this.ended = true;
    this.res.destroy();
  }
}
