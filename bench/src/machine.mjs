// What the figures were measured on: the report is only comparable with a run on the same kind
// of machine, and the load average says how busy the (shared) machine was around the run.
import { availableParallelism, cpus, loadavg, release, totalmem } from 'node:os';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** True when `taskset` can pin a process to a core and there are at least two cores. */
export const canPin = availableParallelism() >= 2 && spawnSync('taskset', ['--version']).status === 0;

export function describeMachine() {
  return {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
    node: process.version,
    os: `${process.platform} ${release()}`,
    pinning: canPin ? 'servers on core 0, load generator on core 1 (taskset)' : 'not pinned',
  };
}

/** 1-minute load average, rounded. */
export const loadAverage = () => Number(loadavg()[0].toFixed(2));

/**
 * CPU time of the whole machine (/proc/stat) and of this run (this process and every child it
 * has reaped, /proc/self/stat), in clock ticks; undefined where /proc is missing.
 */
export function cpuSnapshot() {
  try {
    const machine = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq] = machine;
    const self = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ').map(Number);
    return { busy: user + nice + system + irq + softirq, total: user + nice + system + idle + iowait + irq + softirq, ours: self[11] + self[12] + self[13] + self[14] };
  } catch {
    return undefined;
  }
}

/**
 * Share of the machine's CPU used by work outside this run between two snapshots (0..1): on a
 * shared machine, the context a reader needs to judge the figures of that interval. Children
 * count as ours once reaped, so take the second snapshot after the section's processes exited.
 */
export function othersShare(before, after) {
  if (!before || !after || after.total === before.total) return null;
  const others = after.busy - before.busy - (after.ours - before.ours);
  return Number(Math.max(0, others / (after.total - before.total)).toFixed(3));
}
