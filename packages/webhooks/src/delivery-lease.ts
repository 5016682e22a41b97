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
  /** Checks run one at a time: webhooks pass side by side, and two racing acquires would refuse each other. */
  #holding: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: WebhookEngineStore,
    private readonly nodeId: string,
    private readonly leaseMs: number,
  ) {}

  /** The fence while this node holds the lease (taking it when free), else null. */
  hold(): Promise<RuntimeFence | null> {
    const held = this.#holding.then(
      () => this.#hold(),
      () => this.#hold(),
    );
    this.#holding = held.catch(() => undefined);
    return held;
  }

  async #hold(): Promise<RuntimeFence | null> {
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

  /** Forgets `fence` once the store refused it (another node took over), unless a newer one replaced it meanwhile. */
  lost(fence: RuntimeFence): void {
    if (this.#fence?.token === fence.token) this.#fence = null;
  }

  /** Gives the lease up so another node takes it at once (a clean stop). */
  async release(): Promise<void> {
    const fence = this.#fence;
    this.#fence = null;
    if (fence) await this.store.releaseLease(fence);
  }
}
