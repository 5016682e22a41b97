/**
 * The command streams open on one sandbox. When the sandbox is killed or paused they break: the
 * connection drops without an `end` event, as E2B's do when the VM stops under envd. The SDK then
 * probes `/health`, gets 502 and raises `TimeoutError` ("the sandbox was killed or reached its end
 * of life"), never a `CommandExitError` with a made-up exit.
 */
export class SandboxStreams {
  private readonly open = new Set<() => void>();

  /** Registers how to break one stream; returns the function that unregisters it once it ended. */
  add(sever: () => void): () => void {
    this.open.add(sever);
    return () => {
      this.open.delete(sever);
    };
  }

  /** Breaks every open stream (each at most once). */
  severAll(): void {
    const severs = [...this.open];
    this.open.clear();
    for (const sever of severs) sever();
  }
}
