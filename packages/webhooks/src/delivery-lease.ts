import { LeaseLostError, type RuntimeFence } from '@runtimectl/core';
import type { WebhookEngineStore } from './engine-store';

/** The lease whose holder is the one node of a fleet that delivers webhooks. */
export const WEBHOOK_LEASE_ID = 'fleet:webhooks';

/**
 * The delivery lease, through the same machinery as the runtime and maintenance leases: an
 * exclusive lease held by this node id, renewed by every pass (and by the node's heartbeat,
 * which renews all of a node's leases). When the holder dies its lease lapses after `leaseMs`
 * and the next node to ask takes it; every cursor it writes is fenced by it, so a holder that
 * lost the lease cannot move a cursor any more.
 */
export class DeliveryLease {
  #fence: RuntimeFence | null = null;

  constructor(
    private readonly store: WebhookEngineStore,
    private readonly nodeId: string,
    private readonly leaseMs: number,
  ) {}

  /** The fence while this node holds the lease (taking it when free), else null. */
  async hold(): Promise<RuntimeFence | null> {
    if (this.#fence) {
      await this.store.renewLeases(this.nodeId, this.leaseMs);
      try {
        await this.store.recordWebhookProgress({ fences: [this.#fence] });
        return this.#fence;
      } catch (error) {
        if (!LeaseLostError.isInstance(error)) throw error;
        this.#fence = null;
      }
    }
    const grant = await this.store.acquireLease({ runtimeId: WEBHOOK_LEASE_ID, holderId: this.nodeId, mode: 'exclusive', ttlMs: this.leaseMs });
    this.#fence = grant.granted ? grant.fence : null;
    return this.#fence;
  }

  /** Forgets a fence the store refused (another node took over). */
  lost(): void {
    this.#fence = null;
  }

  /** Gives the lease up so another node takes it at once (a clean stop). */
  async release(): Promise<void> {
    const fence = this.#fence;
    this.#fence = null;
    if (fence) await this.store.releaseLease(fence);
  }
}
