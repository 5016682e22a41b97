import { z } from 'zod';

/** A node of the fleet (one runtimed process) as `GET /api/v1/nodes` shows it. */
export const NodeViewSchema = z.object({
  node_id: z.string(),
  /** Where other nodes forward requests for its runtimes; null: it accepts none. */
  advertise_url: z.string().nullable(),
  /** The runtimed version it runs. */
  version: z.string(),
  started_at_ms: z.number().int(),
  /** Its last heartbeat, on the store's clock. */
  last_heartbeat_at_ms: z.number().int(),
  /** Heartbeat within the fleet's lease (`fleet.lease_ms`) of the store's clock now. */
  alive: z.boolean(),
  /** Runtimes (not closed) whose backend lives on its machine: only it serves them. */
  runtimes: z.number().int().nonnegative(),
});
export type NodeView = z.infer<typeof NodeViewSchema>;

export const NodeListResultSchema = z.object({ nodes: z.array(NodeViewSchema) });
export type NodeListResult = z.infer<typeof NodeListResultSchema>;

/** `GET /api/v1/ready`: this node can reach its store (a failure is 503 `store_unavailable`). */
export const ReadyResultSchema = z.object({ status: z.literal('ready'), node_id: z.string() });
export type ReadyResult = z.infer<typeof ReadyResultSchema>;
