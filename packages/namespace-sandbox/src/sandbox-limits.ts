/**
 * Resources one sandbox's processes may use together — every command and background job in it,
 * and its own init. Absent or 0: no limit of that kind.
 */
export interface SandboxLimits {
  /**
   * Bytes of memory (as the kernel's memory cgroup counts them: process memory, page cache,
   * kernel memory for the group). Beyond it the kernel kills a process of the sandbox (the
   * largest), never one outside it. Swap beyond it is refused where the kernel accounts swap.
   */
  memoryBytes?: number;
  /** Processes and threads at once; a `fork` or thread beyond it fails with EAGAIN. */
  pids?: number;
  /** CPU time per wall-clock time, in cores (`0.5`: half of one core); throttled, never killed, beyond it. */
  cpuCores?: number;
}

/** How often the sandbox's limits were hit since it started (counters only grow). */
export interface LimitCounters {
  /** Processes the kernel killed for going over `memoryBytes`. */
  oomKills: number;
  /** Forks refused because `pids` processes were running. */
  pidsRefusals: number;
}

/** Throws `TypeError` for a limit that is not a positive number of its unit (0 means none). */
export function checkLimits(limits: SandboxLimits): SandboxLimits {
  const whole = (name: string, value: number | undefined, minimum: number) => {
    if (value !== undefined && value !== 0 && (!Number.isSafeInteger(value) || value < minimum)) throw new TypeError(`${name} must be a whole number of at least ${minimum}, or 0 for none`);
  };
  whole('memoryBytes', limits.memoryBytes, 4 * 1024 * 1024);
  whole('pids', limits.pids, 8);
  if (limits.cpuCores !== undefined && limits.cpuCores !== 0 && !(Number.isFinite(limits.cpuCores) && limits.cpuCores >= 0.01)) {
    throw new TypeError('cpuCores must be at least 0.01, or 0 for none');
  }
  return limits;
}

/** Whether `limits` asks for anything at all. */
export const hasLimits = (limits: SandboxLimits | undefined): limits is SandboxLimits =>
  limits !== undefined && Boolean(limits.memoryBytes || limits.pids || limits.cpuCores);
