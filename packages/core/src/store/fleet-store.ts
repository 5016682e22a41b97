/**
 * What a fleet of nodes (runtimed processes on one store) shares beyond the records: runtime
 * leases with fencing tokens, the node registry and the installation id. One daemon on SQLite or
 * the memory store is the one-node case of the same interfaces (ARCHITECTURE.md, "A fleet").
 *
 * Time: a store that several machines share (PostgreSQL) measures lease and heartbeat expiry on
 * its own clock (`now()`), never on a node's, so clock skew between nodes cannot grant one
 * runtime to two of them. A one-process store uses its process clock.
 */

/** How an operation holds a runtime (the same modes and conflict rules as `RuntimeLocks`). */
export type LeaseMode = 'shared' | 'checkout' | 'exclusive';

export interface LeaseRequest {
  runtimeId: string;
  /** The node asking (its node id). */
  holderId: string;
  mode: LeaseMode;
  /** The lease lapses this long after it was granted or last renewed. */
  ttlMs: number;
}

/**
 * A granted lease, or why it was not granted. Conflicts follow `RuntimeLocks`: an unexpired
 * exclusive lease conflicts with everything; shared leases with exclusive and checkout requests;
 * checkout leases with exclusive requests. Expired leases never conflict.
 */
export type LeaseGrant = { granted: true; fence: RuntimeFence } | { granted: false; conflict: string };

/**
 * Proof that an operation holds a runtime's lease. `token` is unique across the store's life
 * and never reused (a sequence), so a lease that lapsed and was granted again has a new token.
 */
export interface RuntimeFence {
  runtimeId: string;
  token: string;
}

export interface LeaseStore {
  /**
   * Grants `request` unless an unexpired lease of the runtime conflicts. Atomic across every
   * process sharing the store: of two conflicting requests racing, at most one is granted.
   */
  acquireLease(request: LeaseRequest): Promise<LeaseGrant>;
  /** Ends a lease. An unknown or already expired fence is ignored. */
  releaseLease(fence: RuntimeFence): Promise<void>;
  /**
   * Extends every unexpired lease `holderId` holds to `ttlMs` from now (a node's heartbeat);
   * a lease that already lapsed is not revived. Resolves how many were extended.
   */
  renewLeases(holderId: string, ttlMs: number): Promise<number>;
  /** Runtimes with an unexpired shared or exclusive lease (not checkout): their `running` status. */
  listBusyRuntimeIds(): Promise<string[]>;
}

/** A node of the fleet as the store knows it. */
export interface NodeRecord {
  nodeId: string;
  /** Where other nodes reach it (forwarding), or null when it accepts no forwarded requests. */
  advertiseUrl: string | null;
  /** The runtimed version it runs. */
  version: string;
  startedAtMs: number;
  /** Its last heartbeat, on the store's clock. */
  heartbeatAtMs: number;
}

export interface NodeStore {
  /**
   * The fleet's installation id (ownership labels on provider resources): `candidate` when the
   * store holds none yet, else the stored one. Atomic: nodes starting at once agree.
   */
  claimInstallationId(candidate: string): Promise<string>;
  /**
   * Registers or re-registers a node (a restart keeps its node id), heartbeat = now, and ends
   * every lease the node id holds: the operations of its previous life died with that process,
   * and the restarted node's heartbeats would otherwise renew their leases for ever.
   */
  registerNode(node: Omit<NodeRecord, 'heartbeatAtMs'>): Promise<void>;
  /** Records a heartbeat of `nodeId` (now, on the store's clock) and renews its leases (`renewLeases`) in the same step. */
  heartbeatNode(nodeId: string, leaseTtlMs: number): Promise<void>;
  /** Every registered node, by node id. */
  listNodes(): Promise<NodeRecord[]>;
  /** The store's clock now (ms since the epoch): what `heartbeatAtMs` is measured against. */
  storeTimeMs(): Promise<number>;
}

/** A commit made under leases: refused (`LeaseLostError`) unless every fence is still an unexpired lease. */
export interface FencedBatch {
  fences?: RuntimeFence[];
}
