import { WorkspaceQuotaExceededError } from '@runtimectl/provider';
import { measureTree, type TreeUsage } from './workspace-usage';

/** Where quota events go (the daemon turns them into metrics); the provider has no metrics library. */
export interface WorkspaceQuotaObserver {
  /** A write-file refused, or a command stopped, for taking a workspace over its quota. */
  refused?(operation: 'write' | 'exec'): void;
}

/** A measurement is re-used this long; writes in between adjust it by what they add. */
const MEASUREMENT_TTL_MS = 1_000;

interface Measurement extends TreeUsage {
  atMs: number;
}

/** What a workspace may hold: bytes on disk and entries (inodes); 0 for no limit of that kind, never both. */
export interface QuotaLimits {
  bytes: number;
  inodes: number;
}

/**
 * The quota of every workspace of one provider — bytes on disk and entries (files, directories,
 * links: inodes, which an empty file takes without a block) — and what each last measured (`du`),
 * shared by the write path's check and the command watchdog, and summed for the usage metric.
 */
export class WorkspaceQuota {
  readonly #measured = new Map<string, Measurement>();
  readonly #measuring = new Map<string, Promise<TreeUsage>>();

  constructor(
    readonly limits: QuotaLimits,
    private readonly observer: WorkspaceQuotaObserver = {},
    /** The tree measured for workspace `root` (default: itself; see LocalProviderSettings.quotaTree). */
    private readonly treeOf: (root: string) => Promise<string> = async (root) => root,
  ) {}

  /** Bytes a workspace may occupy; 0: no byte limit. */
  get quotaBytes(): number {
    return this.limits.bytes;
  }

  /**
   * The workspace's usage now: measured again unless a measurement younger than the TTL exists
   * (`fresh` forces one). When measuring fails, the last measurement, however old, is the answer.
   */
  async usage(root: string, fresh = false): Promise<TreeUsage> {
    const last = this.#measured.get(root);
    if (!fresh && last && Date.now() - last.atMs < MEASUREMENT_TTL_MS) return last;
    let measuring = this.#measuring.get(root);
    if (!measuring) {
      measuring = this.treeOf(root)
        .then((tree) => measureTree(tree, { inodes: this.limits.inodes > 0 }))
        .then(
          (usage) => {
            this.#measured.set(root, { ...usage, atMs: Date.now() });
            return usage;
          },
          (error: unknown) => {
            // du failed every try (a command renaming directories under it): the last measurement stands.
            if (last) return last;
            throw error;
          },
        )
        .finally(() => this.#measuring.delete(root));
      this.#measuring.set(root, measuring);
    }
    return measuring;
  }

  /**
   * Throws `WorkspaceQuotaExceededError` when writing `addBytes` over a file of `replacedBytes`,
   * creating `newEntries` entries (0 when the file exists), would take the workspace over its
   * quota. `path` is the request's (never a host path).
   */
  async assertWriteFits(root: string, path: string, write: { addBytes: number; replacedBytes: number; newEntries: number }): Promise<void> {
    const used = await this.usage(root);
    const { bytes, inodes } = this.limits;
    if (bytes > 0 && used.bytes - write.replacedBytes + write.addBytes > bytes) {
      this.refused('write');
      throw new WorkspaceQuotaExceededError(
        `writing ${write.addBytes} bytes to ${path} would take the workspace over its ${bytes}-byte quota (${used.bytes} bytes used): delete files first`,
        { path, quota_bytes: bytes },
      );
    }
    if (inodes > 0 && write.newEntries > 0 && used.inodes + write.newEntries > inodes) {
      this.refused('write');
      throw new WorkspaceQuotaExceededError(
        `creating ${path} would take the workspace over its quota of ${inodes} files, directories and links (${used.inodes} used): delete some first`,
        { path, quota_bytes: bytes, quota_inodes: inodes },
      );
    }
  }

  /** What `usage` measured is over the quota and grew past `start` (so a clean-up already over it may run): the kind, or undefined. */
  overAndGrowing(used: TreeUsage, start: TreeUsage): keyof QuotaLimits | undefined {
    if (this.limits.bytes > 0 && used.bytes > this.limits.bytes && used.bytes > start.bytes) return 'bytes';
    if (this.limits.inodes > 0 && used.inodes > this.limits.inodes && used.inodes > start.inodes) return 'inodes';
    return undefined;
  }

  /** Whether `used` is at the quota of either kind. */
  atQuota(used: TreeUsage): keyof QuotaLimits | undefined {
    if (this.limits.bytes > 0 && used.bytes >= this.limits.bytes) return 'bytes';
    if (this.limits.inodes > 0 && used.inodes >= this.limits.inodes) return 'inodes';
    return undefined;
  }

  /** How the quota of `kind` reads in a message: `524288 bytes`, `200 files, directories and links`. */
  describe(kind: keyof QuotaLimits): string {
    return kind === 'bytes' ? `${this.limits.bytes} bytes` : `${this.limits.inodes} files, directories and links`;
  }

  /** A write of the file API changed the usage by `deltaBytes` and `deltaEntries` (kept until the next measurement). */
  wrote(root: string, deltaBytes: number, deltaEntries = 0): void {
    const last = this.#measured.get(root);
    if (!last) return;
    last.bytes = Math.max(0, last.bytes + deltaBytes);
    last.inodes = Math.max(0, last.inodes + deltaEntries);
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
  lastKnown(root: string): TreeUsage | undefined {
    return this.#measured.get(root);
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
