import { LeaseLostError } from '../errors/fleet-errors';
import { SessionBusyError } from '../errors/runtime-state-errors';
import type { RuntimeFence } from '../store/fleet-store';
import type { RuntimeStore } from '../store/runtime-store';
import type { RuntimeLeases } from '../runtime/runtime-leases';
import type { NodeIdentity } from '../runtime/service-context';

/** The reserved runtime id whose exclusive lease makes a node the fleet's maintenance holder. */
export const MAINTENANCE_LEASE_ID = 'fleet:maintenance';

/** Maintenance runs every this many heartbeats. */
const MAINTAIN_EVERY_BEATS = 3;

/**
 * This node's membership of the fleet: registers it in the store, heartbeats every leaseMs/3
 * (which also renews its leases, so an operation outliving the lease time keeps its runtime, and
 * retries releases the store did not take), checks or takes the maintenance lease and runs
 * `everyBeat` with whether it holds it (the keep-alive duty) on every heartbeat, and `maintain`
 * every few — those duties beside the heartbeat, never in front of it. The timer is unref'd: it
 * never keeps a process alive.
 */
export class FleetMembership {
  #started: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #beats = 0;
  #beating = false;
  /** The maintenance lease check, the every-beat duties and maintenance: run beside the heartbeat, never in front of it. */
  #working = false;
  #maintenance: RuntimeFence | null = null;
  /** Taken by a heartbeat since `holdMaintenance` last answered: its next answer is `acquired`. */
  #takenOver = false;
  /** Checks of the lease run one at a time (a heartbeat and start-up reconciliation may overlap). */
  #holding: Promise<unknown> = Promise.resolve();
  /** Between stop() and the next start(): a heartbeat still in flight must not take the lease again. */
  #stopped = false;

  constructor(
    private readonly store: RuntimeStore,
    private readonly node: NodeIdentity,
    private readonly leases: RuntimeLeases,
    private readonly maintain: () => Promise<unknown>,
    private readonly everyBeat: (holder: boolean) => Promise<unknown> = async () => {},
  ) {}

  /** Registers the node and starts heartbeating; idempotent. */
  start(): Promise<void> {
    this.#started ??= (async () => {
      this.#stopped = false;
      const { nodeId, advertiseUrl, version } = this.node;
      await this.store.registerNode({ nodeId, advertiseUrl, version, startedAtMs: await this.store.storeTimeMs() });
      this.#timer = setInterval(() => void this.#beat(), Math.max(1, Math.floor(this.node.leaseMs / 3)));
      this.#timer.unref();
    })();
    return this.#started;
  }

  /** Stops heartbeating and gives the maintenance lease up (another node takes it at once). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#started = undefined;
    this.#stopped = true;
    await this.#serially(async () => {
      if (this.#maintenance) await this.leases.release(this.#maintenance);
      this.#maintenance = null;
    });
  }

  /**
   * Makes sure this node holds the maintenance lease: `held` (it already did, still unexpired),
   * `acquired` (it just took it: the previous holder stopped or died), or `busy` (another node has it).
   */
  async holdMaintenance(): Promise<'held' | 'acquired' | 'busy'> {
    const status = await this.#serially(() => this.#hold());
    const takenOver = this.#takenOver;
    this.#takenOver = false;
    return status === 'held' && takenOver ? 'acquired' : status;
  }

  /** Whether this node holds the maintenance lease (taking it when it is free), for the duties of every heartbeat. */
  async holdsMaintenance(): Promise<boolean> {
    const status = await this.#serially(() => this.#hold());
    if (status === 'acquired') this.#takenOver = true;
    return status !== 'busy';
  }

  #serially<T>(work: () => Promise<T>): Promise<T> {
    const done = this.#holding.then(work, work);
    this.#holding = done.catch(() => {});
    return done;
  }

  async #hold(): Promise<'held' | 'acquired' | 'busy'> {
    if (this.#stopped) return 'busy';
    if (this.#maintenance) {
      try {
        await this.store.commit({ fences: [this.#maintenance] });
        return 'held';
      } catch (error) {
        if (!LeaseLostError.isInstance(error)) throw error;
        this.#maintenance = null;
      }
    }
    try {
      this.#maintenance = await this.leases.acquire(MAINTENANCE_LEASE_ID, 'exclusive');
      return 'acquired';
    } catch (error) {
      if (SessionBusyError.isInstance(error)) return 'busy';
      throw error;
    }
  }

  /** The maintenance lease's fence while this node holds it (sweeps commit under it). */
  get maintenanceFence(): RuntimeFence | null {
    return this.#maintenance;
  }

  /**
   * The heartbeat, and beside it the duties. A sweep or a keep-alive pass may take longer than
   * the lease: were the heartbeat to wait behind it, this node would read as dead and its leases
   * lapse while it works, and another node would sweep its in-flight creates as orphans.
   */
  #beat(): void {
    void this.#heartbeat();
    void this.#duties();
  }

  async #heartbeat(): Promise<void> {
    if (this.#beating) return;
    this.#beating = true;
    try {
      // Failures are retried at the next beat; a node that cannot reach its store for longer
      // than the lease time loses its leases, and its late commits are refused (fencing).
      await this.store.heartbeatNode(this.node.nodeId, this.node.leaseMs).catch(() => {});
      await this.leases.retryReleases();
    } finally {
      this.#beating = false;
    }
  }

  async #duties(): Promise<void> {
    if (this.#working) return;
    this.#working = true;
    try {
      this.#beats += 1;
      // A store that cannot be asked leaves every provider's keep-alive set as it was.
      await this.holdsMaintenance()
        .then((holder) => this.everyBeat(holder))
        .catch(() => {});
      if (this.#beats % MAINTAIN_EVERY_BEATS === 0) await this.maintain().catch(() => {});
    } finally {
      this.#working = false;
    }
  }
}
