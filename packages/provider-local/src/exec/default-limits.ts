import { availableParallelism, totalmem } from 'node:os';
import type { SandboxLimits } from '@runtimectl/namespace-sandbox';

const GiB = 1024 ** 3;

/**
 * Limits of one workspace's sandbox when the settings name none, chosen so one runaway runtime
 * cannot take the machine from the daemon and the other runtimes, while a build still fits:
 *
 * - memory: half the machine's memory, at most 4 GiB (a large `npm install` or compiler run
 *   stays well under 2 GiB);
 * - processes: 4096 tasks (threads count: a JVM or a parallel build uses hundreds, a fork bomb
 *   reaches it in milliseconds and stops there);
 * - CPU: all cores but one (at least one core), so the daemon and other runtimes keep a core
 *   whatever one runtime spins.
 */
export const DEFAULT_SANDBOX_LIMITS: Required<SandboxLimits> = {
  memoryBytes: Math.min(4 * GiB, Math.floor(totalmem() / 2 / 4096) * 4096),
  pids: 4096,
  cpuCores: Math.max(1, availableParallelism() - 1),
};
