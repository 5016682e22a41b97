/**
 * Snapshots: a copy of a sandbox's directory under `<root>/templates/`, addressable as a
 * template. Named snapshots get `snapshotID` `<team>/<name>:default`; unnamed ones
 * `<templateId>:default`. Snapshotting again under a taken name makes a new build of the same
 * template (the `default` tag moves to it), as E2B does with template aliases.
 */
import { rm } from 'node:fs/promises';
import { copySandboxTree } from './copy-sandbox-tree.js';
import path from 'node:path';
import { randomId } from './sandbox-ids.js';
import type { SandboxRecord } from './sandbox-store.js';

export const DEFAULT_TAG = 'default';

export interface SnapshotRecord {
  readonly templateId: string;
  /** `<team>/<name>` when the snapshot was named. */
  readonly alias: string | undefined;
  sourceSandboxId: string;
  /** Host directory holding the current build's filesystem. */
  directory: string;
  createdAtMs: number;
  builds: number;
}

/** The wire identity of a snapshot: `snapshotID` and the `names` list of SnapshotInfo. */
export function snapshotIdOf(record: SnapshotRecord): string {
  return `${record.alias ?? record.templateId}:${DEFAULT_TAG}`;
}

export function snapshotNamesOf(record: SnapshotRecord): string[] {
  return record.alias ? [`${record.alias}:${DEFAULT_TAG}`] : [];
}

export class SnapshotStore {
  private readonly byTemplateId = new Map<string, SnapshotRecord>();

  constructor(
    private readonly root: string,
    readonly teamSlug: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Copies the sandbox's directory into a snapshot. Its processes are frozen (SIGSTOP) during
   * the copy, as E2B pauses the sandbox while it snapshots, and continue afterwards unless the
   * sandbox is paused by then (they stay frozen until it resumes).
   */
  async createFrom(sandbox: SandboxRecord, name: string | undefined): Promise<SnapshotRecord> {
    const alias = name ? `${this.teamSlug}/${name}` : undefined;
    const existing = alias ? this.findByAlias(alias) : undefined;
    const templateId = existing?.templateId ?? randomId(20);
    const builds = (existing?.builds ?? 0) + 1;
    const directory = path.join(this.root, 'templates', `${templateId}-build-${builds}`);
    sandbox.processes.signalAll('SIGSTOP');
    try {
      await copySandboxTree(sandbox.directory, directory);
    } catch (error) {
      await rm(directory, { recursive: true, force: true });
      throw error;
    } finally {
      if (sandbox.state === 'running') sandbox.processes.signalAll('SIGCONT');
    }
    if (existing) {
      const previous = existing.directory;
      existing.directory = directory;
      existing.sourceSandboxId = sandbox.sandboxId;
      existing.createdAtMs = this.now();
      existing.builds = builds;
      await rm(previous, { recursive: true, force: true });
      return existing;
    }
    const record: SnapshotRecord = {
      templateId,
      alias,
      sourceSandboxId: sandbox.sandboxId,
      directory,
      createdAtMs: this.now(),
      builds,
    };
    this.byTemplateId.set(templateId, record);
    return record;
  }

  /** Finds a snapshot by raw template id, `<team>/<name>` or bare `<name>` (tag already stripped). */
  find(reference: string): SnapshotRecord | undefined {
    return (
      this.byTemplateId.get(reference) ??
      this.findByAlias(reference) ??
      this.findByAlias(`${this.teamSlug}/${reference}`)
    );
  }

  /** Snapshots, newest first, optionally only those taken from `sandboxId` or named `name`. */
  list(filter: { sandboxId?: string | undefined; name?: string | undefined } = {}): SnapshotRecord[] {
    return [...this.byTemplateId.values()]
      .filter((record) => !filter.sandboxId || record.sourceSandboxId === filter.sandboxId)
      .filter((record) => !filter.name || record.alias === filter.name || record.alias === `${this.teamSlug}/${filter.name}`)
      .sort((left, right) => right.createdAtMs - left.createdAtMs || left.templateId.localeCompare(right.templateId));
  }

  /** Deletes the snapshot template and its files. The caller checks that nothing uses it. */
  async delete(record: SnapshotRecord): Promise<void> {
    this.byTemplateId.delete(record.templateId);
    await rm(record.directory, { recursive: true, force: true });
  }

  async deleteAll(): Promise<void> {
    await Promise.all([...this.byTemplateId.values()].map((record) => this.delete(record)));
  }

  private findByAlias(alias: string): SnapshotRecord | undefined {
    for (const record of this.byTemplateId.values()) if (record.alias === alias) return record;
    return undefined;
  }
}
