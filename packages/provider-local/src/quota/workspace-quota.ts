import { WorkspaceQuotaExceededError } from '@runtimectl/provider';
import { measureTreeBytes } from './workspace-usage';

/** Where quota events go (the daemon turns them into metrics); the provider has no metrics library. */
export interface WorkspaceQuotaObserver {
  /** A write-file refused, or a command stopped, for taking a workspace over its quota. */
  refused?(operation: 'write' | 'exec'): void;
}

/** A measurement is re-used this long; writes in between adjust it by what they add. */
const MEASUREMENT_TTL_MS = 1_000;

interface Measurement {
  bytes: number;
  atMs: number;
}

/**
 * The disk quota of every workspace of one provider: what each last measured (`du`), shared by
 * the write path's check and the command watchdog, and summed for the usage metric.
 */
export class WorkspaceQuota {
  readonly #measured = new Map<string, Measurement>();
  readonly #measuring = new Map<string, Promise<number>>();

  constructor(
    /** Bytes a workspace may occupy; never 0 (no quota means no WorkspaceQuota). */
    readonly quotaBytes: number,
    private readonly observer: WorkspaceQuotaObserver = {},
    /** The tree measured for workspace `root` (default: itself; see LocalProviderSettings.quotaTree). */
    private readonly treeOf: (root: string) => Promise<string> = async (root) => root,
  ) {}

  /**
   * The workspace's usage now: measured again unless a measurement younger than the TTL exists
   * (`fresh` forces one). When measuring fails, the last measurement, however old, is the answer.
   */
  async usage(root: string, fresh = false): Promise<number> {
    const last = this.#measured.get(root);
    if (!fresh && last && Date.now() - last.atMs < MEASUREMENT_TTL_MS) return last.bytes;
    let measuring = this.#measuring.get(root);
    if (!measuring) {
      measuring = this.treeOf(root)
        .then(measureTreeBytes)
        .then(
          (bytes) => {
            this.#measured.set(root, { bytes, atMs: Date.now() });
            return bytes;
          },
          (error: unknown) => {
            // du failed every try (a command renaming directories under it): the last measurement stands.
            if (last) return last.bytes;
            throw error;
          },
        )
        .finally(() => this.#measuring.delete(root));
      this.#measuring.set(root, measuring);
    }
    return measuring;
  }

  /**
   * Throws `WorkspaceQuotaExceededError` when writing `addBytes` over a file of `replacedBytes`
   * would take the workspace over its quota. `path` is the request's (never a host path).
   */
  async assertWriteFits(root: string, path: string, addBytes: number, replacedBytes: number): Promise<void> {
    const used = await this.usage(root);
    if (used - replacedBytes + addBytes <= this.quotaBytes) return;
    this.refused('write');
    throw new WorkspaceQuotaExceededError(
      `writing ${addBytes} bytes to ${path} would take the workspace over its ${this.quotaBytes}-byte quota (${used} bytes used): delete files first`,
      { path, quota_bytes: this.quotaBytes },
    );
  }

  /** A write of the file API changed the usage by `deltaBytes` (kept until the next measurement). */
  wrote(root: string, deltaBytes: number): void {
    const last = this.#measured.get(root);
    if (last) last.bytes = Math.max(0, last.bytes + deltaBytes);
  }

  refused(operation: 'write' | 'exec'): void {
    try {
      this.observer.refused?.(operation);
    } catch {
      // A metrics failure must never fail the operation.
    }
  }

  /** A command ran: the next `usage` measures again (the last value stays known, see `lastKnown`). */
  invalidate(root: string): void {
    const last = this.#measured.get(root);
    if (last) last.atMs = 0;
  }

  /** The last measurement, however old; undefined before the first. */
  lastKnown(root: string): number | undefined {
    return this.#measured.get(root)?.bytes;
  }

  /** The workspace was released: its usage no longer counts. */
  forget(root: string): void {
    this.#measured.delete(root);
  }

  /** Workspaces measured so far and the sum of their last measurements (for the usage metric; never walks). */
  total(): { workspaces: number; bytesUsed: number } {
    let bytesUsed = 0;
    for (const { bytes } of this.#measured.values()) bytesUsed += bytes;
    return { workspaces: this.#measured.size, bytesUsed };
  }
}
