import type { CheckpointStore, FleetNode, NodeState, SessionStore } from '@runtimectl/core';

export type { FleetNode, NodeState };

/** Where the server reads the fleet's nodes (the daemon builds it over the store's `NodeStore`). */
export interface NodeDirectory {
  /** Every registered node with the runtimes each is home of: `GET /nodes` only. May throw `StoreUnavailableError`. */
  nodes(): Promise<FleetNode[]>;
  /** Every registered node and whether it is alive, nothing counted: what forwarding, Idempotency-Key takeover and metrics ask. */
  nodeStates(): Promise<NodeState[]>;
  /** A round trip to the store (its clock now): what readiness asks. */
  storeTimeMs(): Promise<number>;
}

/** Where a runtime's home node is read: the store (`SessionRecord.homeNodeId`). */
export type HomeNodeSource = Pick<SessionStore, 'getSession'> & Pick<CheckpointStore, 'getCheckpoint'>;

/** This server as one node of a fleet (see docs/deploy.md, "A fleet"). */
export interface FleetOptions {
  /** This node's id (`fleet.node_id`): Idempotency-Key owner, forwarding header, metrics label. */
  nodeId: string;
  directory: NodeDirectory;
  homes: HomeNodeSource;
  /**
   * Proxy a request for a runtime whose home is another node to that node's advertised URL.
   * false: answer 503 `runtime_on_other_node` instead. Default true.
   */
  forward?: boolean;
  /** Longest a forwarded request may take, answer streamed included. Default 10 minutes. */
  forwardTimeoutMs?: number;
  /**
   * The fleet's shared secret (32+ characters): nodes sign what they send each other with it and
   * believe only what is signed with it (docs/http-api.md, "Fleet forwarding"). Without it this
   * node neither forwards (503 `runtime_on_other_node`) nor accepts forwarded requests (401).
   * Never logged.
   */
  secret?: string;
  /** How long the peer handshake before a forward may take. Default 5 s (at most forwardTimeoutMs). */
  handshakeTimeoutMs?: number;
  /** How long readiness waits for the store before answering 503 `store_unavailable`. Default 2 s. */
  readyTimeoutMs?: number;
}

export const FORWARDED_BY_HEADER = 'x-runtimectl-forwarded-by';

/** The peer handshake's route under the API prefix (`GET /fleet/hello`: see fleetRoutes and provePeer). */
export const PEER_HELLO_PATH = '/fleet/hello';
