import { LeaseLostError } from '../errors/fleet-errors';
import type { LeaseGrant, LeaseRequest, LeaseStore, NodeRecord, NodeStore, RuntimeFence } from './fleet-store';
import { leaseConflict } from './lease-conflict';

interface Lease {
  runtimeId: string;
  holderId: string;
  mode: LeaseRequest['mode'];
  expiresAtMs: number;
}

/**
 * Leases, nodes and the installation id of a store only one process uses (the memory store):
 * the one-node case of the fleet, on the process clock. Leases live in memory and die with the
 * process, as they must. `clock` is injectable so tests can let a lease lapse.
 */
export class ProcessFleetState implements LeaseStore, NodeStore {
  readonly #leases = new Map<string, Lease>();
  readonly #tokensByRuntime = new Map<string, Set<string>>();
  readonly #nodes = new Map<string, NodeRecord>();
  #nextToken = 1;
  #installationId: string | undefined;

  constructor(private readonly clock: () => number = Date.now) {}

  async acquireLease(request: LeaseRequest): Promise<LeaseGrant> {
    const held = this.#unexpired(request.runtimeId).map((lease) => lease.mode);
    const conflict = leaseConflict(held, request.mode);
    if (conflict) return { granted: false, conflict };
    const token = String(this.#nextToken++);
    const { runtimeId, holderId, mode } = request;
    this.#leases.set(token, { runtimeId, holderId, mode, expiresAtMs: this.clock() + request.ttlMs });
    const tokens = this.#tokensByRuntime.get(runtimeId) ?? new Set<string>();
    this.#tokensByRuntime.set(runtimeId, tokens.add(token));
    return { granted: true, fence: { runtimeId, token } };
  }

  async releaseLease(fence: RuntimeFence): Promise<void> {
    this.#drop(fence.token);
  }

  async renewLeases(holderId: string, ttlMs: number): Promise<number> {
    const now = this.clock();
    let renewed = 0;
    for (const lease of this.#leases.values()) {
      if (lease.holderId !== holderId || lease.expiresAtMs <= now) continue;
      lease.expiresAtMs = now + ttlMs;
      renewed += 1;
    }
    return renewed;
  }

  async listBusyRuntimeIds(): Promise<string[]> {
    const now = this.clock();
    const busy = new Set<string>();
    for (const lease of this.#leases.values()) {
      if (lease.mode !== 'checkout' && lease.expiresAtMs > now) busy.add(lease.runtimeId);
    }
    return [...busy].sort();
  }

  /** Throws LeaseLostError unless every fence names an unexpired lease of its runtime (a fenced commit's check). */
  assertFences(fences: readonly RuntimeFence[] | undefined): void {
    const now = this.clock();
    for (const fence of fences ?? []) {
      const lease = this.#leases.get(fence.token);
      if (!lease || lease.runtimeId !== fence.runtimeId || lease.expiresAtMs <= now) throw new LeaseLostError(fence.runtimeId);
    }
  }

  async claimInstallationId(candidate: string): Promise<string> {
    this.#installationId ??= candidate;
    return this.#installationId;
  }

  async registerNode(node: Omit<NodeRecord, 'heartbeatAtMs'>): Promise<void> {
    this.#nodes.set(node.nodeId, { ...node, heartbeatAtMs: this.clock() });
    for (const [token, lease] of this.#leases) if (lease.holderId === node.nodeId) this.#drop(token);
  }

  async heartbeatNode(nodeId: string, leaseTtlMs: number): Promise<void> {
    const node = this.#nodes.get(nodeId);
    if (node) this.#nodes.set(nodeId, { ...node, heartbeatAtMs: this.clock() });
    await this.renewLeases(nodeId, leaseTtlMs);
  }

  async listNodes(): Promise<NodeRecord[]> {
    return [...this.#nodes.values()].sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
  }

  async storeTimeMs(): Promise<number> {
    return this.clock();
  }

  /** The runtime's unexpired leases; forgets the expired ones on the way. */
  #unexpired(runtimeId: string): Lease[] {
    const now = this.clock();
    const found: Lease[] = [];
    for (const token of this.#tokensByRuntime.get(runtimeId) ?? []) {
      const lease = this.#leases.get(token)!;
      if (lease.expiresAtMs > now) found.push(lease);
      else this.#drop(token);
    }
    return found;
  }

  #drop(token: string): void {
    const lease = this.#leases.get(token);
    if (!lease) return;
    this.#leases.delete(token);
    const tokens = this.#tokensByRuntime.get(lease.runtimeId);
    tokens?.delete(token);
    if (tokens?.size === 0) this.#tokensByRuntime.delete(lease.runtimeId);
  }
}
