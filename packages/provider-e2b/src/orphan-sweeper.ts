import { Sandbox } from 'e2b';
import { listSandboxes, listSnapshots } from './owned-resources';
import type { SdkCaller } from './request-deadline';

/**
 * When a create or a snapshot request fails without a definite answer (it timed out, the
 * connection broke, E2B answered 5xx), E2B may still finish it: a sandbox or snapshot nobody
 * records would be billed until it expires (a snapshot: forever). So the provider looks for it
 * by its unique label — the backend id on a sandbox, the name of a snapshot — right away and a
 * few times later, and removes what it finds. Timers are unref'd; `stop` cancels the rest.
 * Crash reconciliation (`listOwnedResources`) remains the backstop.
 */
export const SWEEP_DELAYS_MS = [0, 5_000, 30_000, 120_000] as const;

export class OrphanSweeper {
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(private readonly api: SdkCaller) {}

  /** Kills any sandbox created for `backendId` (its `runtimectl_backend_id` metadata). */
  sandboxOf(backendId: string): void {
    this.#schedule(async () => {
      for (const sandbox of await listSandboxes(this.api, { runtimectl_backend_id: backendId })) {
        if (sandbox.metadata.runtimectl_backend_id === backendId) await this.api((options) => Sandbox.kill(sandbox.sandboxId, options));
      }
    });
  }

  /** Deletes the snapshot named `name` if it appeared. */
  snapshotNamed(name: string): void {
    this.#schedule(async () => {
      for (const snapshot of await listSnapshots(this.api, name)) await this.api((options) => Sandbox.deleteSnapshot(snapshot.snapshotId, options));
    });
  }

  stop(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  #schedule(sweep: () => Promise<void>): void {
    for (const delayMs of SWEEP_DELAYS_MS) {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        // Best effort: a failed sweep is retried by the next one, and reconciliation covers the rest.
        sweep().catch(() => {});
      }, delayMs);
      timer.unref();
      this.#timers.add(timer);
    }
  }
}
