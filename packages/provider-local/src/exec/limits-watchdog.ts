import type { LimitCounters, NamespaceSandbox } from '@runtimectl/namespace-sandbox';
import type { CommandWatch } from './command-watch';
import { groupAlive, signalGroup, waitForGroupExit } from './process-groups';

/** Sampling period while the command runs: a file read of two counters, cheap. */
const RUNNING_INTERVAL_MS = 250;
/** Once exec returned, background jobs of the command are watched this rarely. */
const BACKGROUND_INTERVAL_MS = 1_000;
/** How long a killed group may take to go before the rest of the sandbox is killed too. */
const GROUP_GONE_WITHIN_MS = 200;
const KILL_ALL_WITHIN_MS = 5_000;

/** A workspace sandbox with limits, and its counters read before the command started. */
export interface LimitedSandbox {
  sandbox: NamespaceSandbox;
  before: LimitCounters;
}

/**
 * Watches a command (process group `pgid`) against its sandbox's limits. The kernel enforces
 * them for every process (a fork beyond the process limit fails, an allocation beyond the memory
 * limit gets a process of the sandbox killed); this stops and reports:
 *
 * - process limit: once forks were refused since the command started, the command's group is
 *   SIGKILLed at once (a fork bomb forks on through a grace period); if forks are still refused
 *   at the next sample (its processes left the group: `setsid`, or they outran the kill), every
 *   process of the sandbox but its init goes. The answer has no exit code and says so. After
 *   exec returned, what the command left in the background is watched the same way (then killed
 *   without a report: the answer is gone);
 * - memory limit: the answer says the kernel killed processes of the runtime (the exit status
 *   shows whether it was the command itself: 137, or no exit code).
 */
export function watchLimits(pgid: number, limited: LimitedSandbox): CommandWatch {
  const { sandbox } = limited;
  const limits = sandbox.limits ?? {};
  let baseline = limited.before;
  let stopped = false;
  let killedAll = false;
  let background = false;
  let timer: NodeJS.Timeout | undefined;
  let sampling: Promise<void> = Promise.resolve();

  const refusedSince = (counters: LimitCounters) => counters.pidsRefusals > baseline.pidsRefusals;
  const sample = async (): Promise<void> => {
    let counters: LimitCounters;
    try {
      counters = await sandbox.limitCounters();
    } catch {
      return;
    }
    if (refusedSince(counters)) {
      if (!stopped) {
        stopped = true;
        baseline = counters;
        signalGroup(pgid, 'SIGKILL');
        if (!(await waitForGroupExit(pgid, GROUP_GONE_WITHIN_MS))) await killAll();
      } else {
        await killAll();
      }
    }
    if (killedAll || !groupAlive(pgid)) return;
    schedule(background ? BACKGROUND_INTERVAL_MS : RUNNING_INTERVAL_MS);
  };
  const killAll = async () => {
    killedAll = true;
    await sandbox.killAllButInit(KILL_ALL_WITHIN_MS);
  };
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      sampling = sample();
    }, ms);
    timer.unref();
  };
  schedule(RUNNING_INTERVAL_MS);

  return {
    async finish() {
      await sampling;
      clearTimeout(timer);
      // Whatever happened since the last sample still belongs to this command.
      let counters = await sandbox.limitCounters().catch(() => limited.before);
      if (refusedSince(counters)) {
        await sample();
        clearTimeout(timer);
        counters = await sandbox.limitCounters().catch(() => counters);
      }
      const notes: string[] = [];
      if (stopped) {
        notes.push(`runtimectl: process limit of ${limits.pids} reached: the command was stopped${killedAll ? ', with every process of this runtime' : ''}`);
      }
      const oomKills = counters.oomKills - limited.before.oomKills;
      if (oomKills > 0) {
        notes.push(`runtimectl: memory limit of ${limits.memoryBytes} bytes reached: the kernel killed ${oomKills === 1 ? 'a process' : `${oomKills} processes`} of this runtime`);
      }
      background = true;
      baseline = counters;
      if (!stopped && !killedAll && groupAlive(pgid)) schedule(BACKGROUND_INTERVAL_MS);
      return notes.length === 0 ? undefined : { note: `\n${notes.join('\n')}\n`, stopped };
    },
  };
}
