/** What one refresh found. */
export type RefreshOutcome = 'alive' | 'gone' | 'unknown';

interface TrackedSandbox {
  timeoutMs: number;
  timer: NodeJS.Timeout | undefined;
  /** Why operations on it must fail (it expired, was killed, or was released). */
  goneReason: string | undefined;
  /** Snapshots in flight: E2B pauses a sandbox while it snapshots, so refreshes wait. */
  suspended: number;
  refreshing: boolean;
  /**
   * Tracked through `track` (this process made or attached it) since the last `keepOnly`: the
   * caller's set may predate it, so the next `keepOnly` that leaves it out spares it once.
   */
  fresh: boolean;
}

export interface SandboxKeepAliveOptions {
  /** Extends the sandbox's timeout to `timeoutMs` from now and says whether it still exists. */
  refresh: (sandboxId: string, timeoutMs: number) => Promise<RefreshOutcome>;
  /** The (public) message a sandbox found gone carries: it names no sandbox id. */
  goneMessage: string;
}

/** Refresh at a third of the timeout, so two refreshes in a row may fail before it lapses. */
const REFRESH_FRACTION = 3;

/**
 * Keeps every sandbox a live backend stands for alive: E2B kills a sandbox when its timeout
 * lapses, and nothing but `setTimeout`/`connect` extends it — operations do not. Each tracked
 * sandbox gets an unref'd timer (it never keeps the process alive) that refreshes the timeout
 * well before it lapses. When a refresh finds the sandbox gone, the sandbox is marked gone and
 * every later operation on it fails with `BackendGoneError`: a runtime is never silently bound
 * to a dead sandbox. Release stops the timer. `keepOnly` replaces the whole set refreshed (the
 * fleet's keep-alive duty): sandboxes it adds are refreshed at once, the ones it leaves out are
 * no longer refreshed here (another process does) but stay usable.
 */
export class SandboxKeepAlive {
  readonly #sandboxes = new Map<string, TrackedSandbox>();

  constructor(private readonly options: SandboxKeepAliveOptions) {}

  /** Starts (or keeps) refreshing `sandboxId` with `timeoutMs`. A sandbox tracked anew is alive. */
  track(sandboxId: string, timeoutMs: number): void {
    const existing = this.#sandboxes.get(sandboxId);
    if (existing && existing.goneReason === undefined) {
      existing.timeoutMs = timeoutMs;
      existing.fresh = true;
      return;
    }
    if (existing) clearTimeout(existing.timer);
    this.#start(sandboxId, timeoutMs, { fresh: true, refreshNow: false });
  }

  /**
   * From now on refreshes exactly `wanted` (sandbox id → timeout): starts on the ones it was not
   * refreshing with a refresh at once (whoever refreshed them before may have stopped up to a
   * third of a timeout ago), and stops refreshing the others, leaving them usable — except a
   * sandbox `track`ed since the previous call, which is spared once. A sandbox known gone stays gone.
   */
  keepOnly(wanted: ReadonlyMap<string, number>): void {
    for (const [sandboxId, tracked] of this.#sandboxes) {
      if (tracked.goneReason !== undefined || wanted.has(sandboxId)) continue;
      if (tracked.fresh) {
        tracked.fresh = false;
        continue;
      }
      clearTimeout(tracked.timer);
      this.#sandboxes.delete(sandboxId);
    }
    for (const [sandboxId, timeoutMs] of wanted) {
      const tracked = this.#sandboxes.get(sandboxId);
      if (!tracked) {
        this.#start(sandboxId, timeoutMs, { fresh: false, refreshNow: true });
      } else if (tracked.goneReason === undefined) {
        tracked.timeoutMs = timeoutMs;
        tracked.fresh = false;
      }
    }
  }

  /** Why `sandboxId` can no longer be used, or undefined while it is (or may be) alive. */
  goneReason(sandboxId: string): string | undefined {
    return this.#sandboxes.get(sandboxId)?.goneReason;
  }

  /** Marks the sandbox gone (a call found it missing) and stops refreshing it. */
  markGone(sandboxId: string, reason = this.options.goneMessage): void {
    const tracked = this.#sandboxes.get(sandboxId);
    if (!tracked) {
      this.#sandboxes.set(sandboxId, { timeoutMs: 0, timer: undefined, goneReason: reason, suspended: 0, refreshing: false, fresh: false });
      return;
    }
    clearTimeout(tracked.timer);
    tracked.timer = undefined;
    tracked.goneReason ??= reason;
  }

  /** The sandbox was released on purpose: stop refreshing; operations on old handles fail. */
  released(sandboxId: string): void {
    this.markGone(sandboxId, 'the E2B sandbox was released');
  }

  /** Holds refreshes while a snapshot is taken; call the returned function when it is done. */
  suspend(sandboxId: string): () => void {
    const tracked = this.#sandboxes.get(sandboxId);
    if (!tracked) return () => {};
    tracked.suspended += 1;
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      tracked.suspended -= 1;
    };
  }

  /** Sandboxes being refreshed now. */
  trackedSandboxIds(): string[] {
    return [...this.#sandboxes.entries()].filter(([, tracked]) => tracked.goneReason === undefined).map(([id]) => id);
  }

  /** Stops every timer (the sandboxes are left as they are). */
  stopAll(): void {
    for (const tracked of this.#sandboxes.values()) clearTimeout(tracked.timer);
    this.#sandboxes.clear();
  }

  #start(sandboxId: string, timeoutMs: number, how: { fresh: boolean; refreshNow: boolean }): void {
    const tracked: TrackedSandbox = { timeoutMs, timer: undefined, goneReason: undefined, suspended: 0, refreshing: false, fresh: how.fresh };
    this.#sandboxes.set(sandboxId, tracked);
    this.#schedule(sandboxId, tracked, how.refreshNow ? 0 : undefined);
  }

  #schedule(sandboxId: string, tracked: TrackedSandbox, delayMs?: number): void {
    const interval = delayMs ?? Math.max(100, Math.floor(tracked.timeoutMs / REFRESH_FRACTION));
    tracked.timer = setTimeout(() => void this.#tick(sandboxId, tracked), interval);
    tracked.timer.unref();
  }

  async #tick(sandboxId: string, tracked: TrackedSandbox): Promise<void> {
    if (this.#sandboxes.get(sandboxId) !== tracked || tracked.goneReason !== undefined) return;
    if (tracked.suspended === 0 && !tracked.refreshing) {
      tracked.refreshing = true;
      let outcome: RefreshOutcome = 'unknown';
      try {
        outcome = await this.options.refresh(sandboxId, tracked.timeoutMs);
      } catch {
        outcome = 'unknown';
      } finally {
        tracked.refreshing = false;
      }
      // A refresh that raced with a snapshot may have seen the sandbox paused: only trust it otherwise.
      if (outcome === 'gone' && tracked.suspended === 0) {
        this.markGone(sandboxId);
        return;
      }
    }
    if (this.#sandboxes.get(sandboxId) === tracked && tracked.goneReason === undefined) this.#schedule(sandboxId, tracked);
  }
}
