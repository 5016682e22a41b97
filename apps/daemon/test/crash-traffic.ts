import { setTimeout as sleep } from 'node:timers/promises';
import { CrashLedger, ROUTE_OF, type Operation, type RuntimeEntry, type SentRequest } from './crash-ledger';
import { callDaemon } from './daemon-http';
import type { SeededRandom } from './seeded-random';

export interface TrafficOptions {
  url: string;
  ledger: CrashLedger;
  random: SeededRandom;
  round: number;
  workers: number;
  /** Idle + paused runtimes above which nothing new is opened or checked out. */
  maxLiveRuntimes: number;
}

/** Refusals a correct daemon gives under this traffic: contention and races with a close. */
const EXPECTED_REFUSALS = new Set(['session_busy', 'checkpoint_snapshot_deleted']);

interface Plan {
  operation: Operation;
  key: string;
  body: Record<string, unknown>;
  target: RuntimeEntry | null;
}

/**
 * Concurrent workers sending open / write-file / checkpoint / checkout / pause / resume / close
 * over real HTTP, each POST with its own Idempotency-Key. A worker drives only the runtimes it
 * owns, one request at a time, so every runtime's history is a known sequence; checkouts may
 * name any worker's checkpoint (the source's lock makes real contention). Every answer goes to
 * the ledger; answers a correct daemon never gives are kept in `surprises`.
 */
export class CrashTraffic {
  readonly surprises: string[] = [];
  readonly #workers: Promise<void>[] = [];
  #halted = false;
  #sequence = 0;

  constructor(private readonly options: TrafficOptions) {}

  start(): void {
    for (let worker = 0; worker < this.options.workers; worker += 1) {
      this.#workers.push(this.#run(worker, this.options.random.fork()));
    }
  }

  /** No new requests from now on; the ones in flight keep going (until the daemon dies). */
  halt(): void {
    this.#halted = true;
  }

  /** Resolves when every worker has stopped. */
  async settled(): Promise<void> {
    await Promise.all(this.#workers);
  }

  async #run(worker: number, random: SeededRandom): Promise<void> {
    while (!this.#halted) {
      this.#sequence += 1;
      const plan = this.#plan(worker, random, `crash-${this.options.random.seed}-r${this.options.round}-w${worker}-${this.#sequence}`);
      if (!plan) {
        await sleep(5);
        continue;
      }
      if (!(await this.#send(worker, plan))) return;
    }
  }

  /** Sends one request; false when no answer came (the daemon is gone). */
  async #send(worker: number, plan: Plan): Promise<boolean> {
    const { ledger, round, url } = this.options;
    const request: SentRequest = {
      operation: plan.operation,
      round,
      key: plan.key,
      body: plan.body,
      runtimeId: plan.target?.runtimeId ?? null,
      owner: worker,
    };
    ledger.sent.push(request);
    if (plan.target) plan.target.busy = true;
    try {
      request.answer = await callDaemon(url, ROUTE_OF[plan.operation], plan.body, { 'idempotency-key': request.key });
    } catch {
      if (plan.target) plan.target.unanswered.push(plan.operation);
      return false;
    } finally {
      if (plan.target) plan.target.busy = false;
    }
    const { status, body } = request.answer;
    if (status >= 200 && status < 300) {
      ledger.acknowledge(request, body);
    } else if (!EXPECTED_REFUSALS.has(body?.code)) {
      this.surprises.push(`${plan.operation} ${JSON.stringify(plan.body)} answered ${status} ${request.answer.text}`);
      // After a 5xx the outcome is unknown, as if no answer had come.
      if (status >= 500 && plan.target) plan.target.unanswered.push(plan.operation);
    }
    return true;
  }

  /** What a worker does next (`key` is its Idempotency-Key, also put in the metadata it creates). */
  #plan(worker: number, random: SeededRandom, key: string): Plan | null {
    const { ledger, maxLiveRuntimes } = this.options;
    const own = ledger.runtimesOf(worker).filter((entry) => !entry.busy && entry.unanswered.length === 0);
    const idle = own.filter((entry) => entry.status === 'idle');
    const paused = own.filter((entry) => entry.status === 'paused');
    const room = ledger.liveRuntimeCount() < maxLiveRuntimes;
    // A failed runtime's checkpoints stay checkable-out: that is how its work is recovered.
    const sources = [...ledger.checkpoints.values()].filter((checkpoint) => ledger.runtimes.get(checkpoint.runtimeId)?.status !== 'closed');
    const choices: Array<[number, () => Plan]> = [
      [room ? (idle.length + paused.length === 0 ? 100 : 8) : 0, () => this.#open(worker, random, key)],
      [idle.length > 0 ? 30 : 0, () => this.#write(random.pick(idle), key, random)],
      [idle.length + paused.length > 0 ? 18 : 0, () => this.#control('checkpoint', random.pick([...idle, ...paused]), key)],
      [room && sources.length > 0 ? 12 : 0, () => this.#checkout(random.pick(sources).checkpointId, key)],
      [idle.length > 0 ? 10 : 0, () => this.#control('pause', random.pick(idle), key)],
      [paused.length > 0 ? 12 : 0, () => this.#control('resume', random.pick(paused), key)],
      [idle.length > 2 ? 3 : 0, () => this.#control('close', random.pick(idle), key)],
    ];
    const total = choices.reduce((sum, [weight]) => sum + weight, 0);
    if (total === 0) return null;
    let roll = random.int(1, total);
    for (const [weight, make] of choices) {
      roll -= weight;
      if (roll <= 0) return make();
    }
    return null;
  }

  #open(worker: number, random: SeededRandom, key: string): Plan {
    const body: Record<string, unknown> = { conversation_id: 'crash-test', sender_id: `worker-${worker}`, metadata: { op_key: key } };
    // Half choose their own id (a retry re-attaches to it), half let the daemon generate one.
    if (random.chance(50)) body.runtime_id = key;
    return { operation: 'open', key, body, target: null };
  }

  #write(target: RuntimeEntry, key: string, random: SeededRandom): Plan {
    const content = random.bytes(random.int(1, 96)).toString('base64');
    return { operation: 'write', key, body: { runtime_id: target.runtimeId, path: `notes/${key}.bin`, content_base64: content }, target };
  }

  #control(operation: 'checkpoint' | 'pause' | 'resume' | 'close', target: RuntimeEntry, key: string): Plan {
    const body: Record<string, unknown> = { runtime_id: target.runtimeId };
    // close takes no metadata; resume merges it into the runtime's, so only records it makes carry it.
    if (operation === 'checkpoint' || operation === 'pause') body.metadata = { op_key: key };
    return { operation, key, body, target };
  }

  #checkout(checkpointId: string, key: string): Plan {
    return { operation: 'checkout', key, body: { checkpoint_id: checkpointId, metadata: { op_key: key } }, target: null };
  }
}
