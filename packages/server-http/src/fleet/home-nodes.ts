import type { HomeNodeSource } from './fleet-options';

/** Runtimes whose home is remembered; beyond, the oldest are forgotten (and read again). */
const REMEMBERED_RUNTIMES = 10_000;

/** What a request names: a runtime, or a checkpoint (whose runtime it is about). */
export type RequestTarget = { runtimeId: string } | { checkpointId: string };

/** The runtime or checkpoint a runtime operation's body names, if any. */
export function targetOf(body: unknown): RequestTarget | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { runtime_id: runtimeId, checkpoint_id: checkpointId, to_runtime_id: liveRuntimeId } = body as Record<string, unknown>;
  if (typeof runtimeId === 'string') return { runtimeId };
  // A diff against a live runtime reads that runtime's workspace: its home node answers it.
  if (typeof liveRuntimeId === 'string') return { runtimeId: liveRuntimeId };
  if (typeof checkpointId === 'string') return { checkpointId };
  return undefined;
}

/**
 * The home node of the runtime a request names (`SessionRecord.homeNodeId`): null when any node
 * serves it (or it does not exist yet: the operation itself answers that). A runtime's home is
 * fixed when it is opened (its provider and the node that opened it), so it is remembered.
 */
export class HomeNodes {
  readonly #source: HomeNodeSource;
  readonly #byRuntime = new Map<string, { runtimeId: string; homeNodeId: string | null }>();

  constructor(source: HomeNodeSource) {
    this.#source = source;
  }

  /** The runtime the target names, and its home node; undefined when neither exists. */
  async of(target: RequestTarget): Promise<{ runtimeId: string; homeNodeId: string | null } | undefined> {
    let runtimeId: string;
    if ('runtimeId' in target) {
      runtimeId = target.runtimeId;
    } else {
      const checkpoint = await this.#source.getCheckpoint(target.checkpointId);
      if (!checkpoint) return undefined;
      runtimeId = checkpoint.runtimeId;
    }
    const remembered = this.#byRuntime.get(runtimeId);
    if (remembered) return remembered;
    const session = await this.#source.getSession(runtimeId);
    if (!session) return undefined;
    const home = { runtimeId, homeNodeId: session.homeNodeId ?? null };
    if (this.#byRuntime.size >= REMEMBERED_RUNTIMES) this.#byRuntime.delete(this.#byRuntime.keys().next().value!);
    this.#byRuntime.set(runtimeId, home);
    return home;
  }
}
