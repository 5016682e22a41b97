import { CheckpointNotFoundError, checkoutRoot, RuntimeNotFoundError, RuntimectlError, type RuntimeService } from '@runtimectl/core';

/** Which runtimes a key may see and act on: these, those of these conversations, and their descendants. */
export interface RuntimeScopeConfig {
  /** Runtime ids. */
  ids?: readonly string[];
  /** Conversation ids: their runtimes, and new runtimes opened in them. */
  conversations?: readonly string[];
  /** A key's name: the runtimes opened with that key (`opened_by_key`), and new runtimes it opens. */
  openedBy?: string;
}

/** A key's reach as configured or stored (`runtimes`, `conversations`, `opened_runtimes`), as a scope; undefined: every runtime. */
export function runtimeScopeOf(
  keyName: string,
  reach: { runtimes?: readonly string[] | null | undefined; conversations?: readonly string[] | null | undefined; openedRuntimes?: boolean | undefined },
): RuntimeScopeConfig | undefined {
  if (!reach.runtimes && !reach.conversations && !reach.openedRuntimes) return undefined;
  return {
    ...(reach.runtimes ? { ids: reach.runtimes } : {}),
    ...(reach.conversations ? { conversations: reach.conversations } : {}),
    ...(reach.openedRuntimes ? { openedBy: keyName } : {}),
  };
}

/** A checkout or fork records its source runtime; a chain longer than this is not followed (past its root, checked first). */
const MAX_LINEAGE = 4096;

/**
 * The runtimes one request's key may reach: a runtime is in scope when it is listed, belongs to a
 * listed conversation, or descends (by checkout or fork, `parent_runtime_id`) from one that is.
 * Answers are cached for the request. Out of scope reads as absent: the caller gets the 404 a
 * missing runtime or checkpoint gets, so a key learns nothing of runtimes beyond its own.
 */
export class RuntimeScope {
  readonly #ids: ReadonlySet<string>;
  readonly #conversations: ReadonlySet<string>;
  readonly #openedBy: string | undefined;
  readonly #known = new Map<string, Promise<boolean>>();
  /** Parents read by #grantsItself, for the walk's next hop. */
  readonly #parents = new Map<string, string | null>();

  constructor(
    private readonly service: RuntimeService,
    config: RuntimeScopeConfig,
  ) {
    this.#ids = new Set(config.ids ?? []);
    this.#conversations = new Set(config.conversations ?? []);
    this.#openedBy = config.openedBy;
  }

  /**
   * Whether a runtime may be opened with this id in this conversation: one the scope lists, one
   * in its conversations, or — for a key that reaches the runtimes it opens — a new one (no id, or
   * an id no runtime has: re-opening an existing id re-attaches, which only its own scope allows).
   */
  async mayOpen(runtimeId: string | undefined, conversationId: string | undefined): Promise<boolean> {
    if ((runtimeId !== undefined && this.#ids.has(runtimeId)) || (conversationId !== undefined && this.#conversations.has(conversationId))) return true;
    if (this.openedBy === undefined) return false;
    return runtimeId === undefined || (await absentAsUndefined(() => this.service.get(runtimeId))) === undefined;
  }

  get openedBy(): string | undefined {
    return this.#openedBy;
  }

  includesRuntime(runtimeId: string): Promise<boolean> {
    let known = this.#known.get(runtimeId);
    if (!known) {
      known = this.#walk(runtimeId);
      this.#known.set(runtimeId, known);
    }
    return known;
  }

  async includesCheckpoint(checkpointId: string): Promise<boolean> {
    const checkpoint = await absentAsUndefined(() => this.service.getCheckpoint(checkpointId));
    return checkpoint !== undefined && this.includesRuntime(checkpoint.runtime_id);
  }

  /** Throws the 404 of a missing runtime unless it is in scope. */
  async requireRuntime(runtimeId: string): Promise<void> {
    if (!(await this.includesRuntime(runtimeId))) throw new RuntimeNotFoundError(runtimeId);
  }

  /** Throws the 404 of a missing checkpoint unless its runtime is in scope. */
  async requireCheckpoint(checkpointId: string): Promise<void> {
    if (!(await this.includesCheckpoint(checkpointId))) throw new CheckpointNotFoundError(checkpointId);
  }

  /**
   * Up the lineage from `runtimeId`. Its root first: every checkout or fork of a runtime has an id
   * `<root>:checkout:<hex>` (open refuses such ids), so the root that opened the line answers at
   * once for the usual key — scoped to the runtime an agent works in, or the runtimes it opened —
   * however many times the agent rolled back by checkout. Only a key listing a branch, or a
   * conversation that a checkout moved to, needs the walk from parent to parent.
   */
  async #walk(runtimeId: string): Promise<boolean> {
    const root = checkoutRoot(runtimeId);
    if (root !== runtimeId && (await this.#grantsItself(root)) === true) return true;
    let at: string | null = runtimeId;
    for (let hop = 0; at !== null && hop < MAX_LINEAGE; hop++) {
      const verdict = await this.#grantsItself(at);
      if (verdict !== 'no') return verdict === true;
      at = this.#parents.get(at) ?? null;
    }
    return false;
  }

  /** true when the scope names this runtime itself (its id, its conversation, the key that opened it); 'missing' when it does not exist; 'no' otherwise. */
  async #grantsItself(runtimeId: string): Promise<true | 'no' | 'missing'> {
    if (this.#ids.has(runtimeId)) return true;
    const detail = await absentAsUndefined(() => this.service.get(runtimeId));
    if (!detail) return 'missing';
    this.#parents.set(runtimeId, detail.parent_runtime_id);
    return this.#conversations.has(detail.runtime.conversation_id) || (this.#openedBy !== undefined && detail.opened_by_key === this.#openedBy) ? true : 'no';
  }
}

/** A lookup of something missing or malformed reads as absent; any other failure stands. */
async function absentAsUndefined<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (RuntimectlError.isInstance(error) && ['runtime_not_found', 'checkpoint_not_found', 'invalid_request'].includes(error.code)) return undefined;
    throw error;
  }
}
