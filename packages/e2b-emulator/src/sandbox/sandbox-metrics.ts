/**
 * A sandbox's resource metrics (`GET /sandboxes/{id}/metrics`), measured, not invented: disk
 * used is the size of the sandbox's files, memory used and CPU the resident size and CPU time
 * of the host processes in its commands' process groups (read from /proc). Samples are taken
 * when asked for, at most one a second (E2B collects every 5 s; the emulator has no collector
 * running between calls), and kept for an hour. Totals are the sandbox's nominal size.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { NOMINAL_RESOURCES } from './nominal-resources.js';

export interface MetricSample {
  timestampMs: number;
  cpuCount: number;
  cpuUsedPct: number;
  memUsed: number;
  memTotal: number;
  memCache: number;
  diskUsed: number;
  diskTotal: number;
}

const MIN_SAMPLE_INTERVAL_MS = 1_000;
const MAX_SAMPLES = 3_600;
/** A sandbox with more entries than this reports the size of the first ones (a bound on the walk). */
const MAX_WALKED_ENTRIES = 200_000;
const PAGE_BYTES = 4096;
const CLOCK_TICKS_PER_SECOND = 100;

export class SandboxMetricsHistory {
  #samples: MetricSample[] = [];
  #lastCpuSeconds = 0;

  /** Takes a sample now unless the last one is under a second old. */
  async sample(directory: string, processGroups: readonly number[], nowMs: number): Promise<void> {
    const last = this.#samples.at(-1);
    if (last && nowMs - last.timestampMs < MIN_SAMPLE_INTERVAL_MS) return;
    const [processes, diskUsed] = await Promise.all([processUsage(processGroups), directorySize(directory)]);
    const elapsedSeconds = last ? (nowMs - last.timestampMs) / 1000 : 0;
    const cpuDelta = Math.max(processes.cpuSeconds - this.#lastCpuSeconds, 0);
    this.#lastCpuSeconds = processes.cpuSeconds;
    const cpuUsedPct = elapsedSeconds > 0 ? Math.min((cpuDelta / elapsedSeconds / NOMINAL_RESOURCES.cpuCount) * 100, 100) : 0;
    this.#samples.push({
      timestampMs: nowMs,
      cpuCount: NOMINAL_RESOURCES.cpuCount,
      cpuUsedPct: Math.round(cpuUsedPct * 100) / 100,
      memUsed: processes.residentBytes,
      memTotal: NOMINAL_RESOURCES.memoryMB * 1024 * 1024,
      memCache: 0,
      diskUsed,
      diskTotal: NOMINAL_RESOURCES.diskSizeMB * 1024 * 1024,
    });
    if (this.#samples.length > MAX_SAMPLES) this.#samples.shift();
  }

  /** Samples whose second (the API's precision) lies in [startSeconds, endSeconds]; open ends allowed. */
  between(startSeconds: number | undefined, endSeconds: number | undefined): MetricSample[] {
    return this.#samples.filter((sample) => {
      const second = Math.round(sample.timestampMs / 1000);
      return (startSeconds === undefined || second >= startSeconds) && (endSeconds === undefined || second <= endSeconds);
    });
  }
}

/** Resident bytes and CPU seconds of every host process in `groups` (Linux /proc; zero elsewhere). */
async function processUsage(groups: readonly number[]): Promise<{ residentBytes: number; cpuSeconds: number }> {
  const usage = { residentBytes: 0, cpuSeconds: 0 };
  if (groups.length === 0 || os.platform() !== 'linux') return usage;
  const wanted = new Set(groups);
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name));
  await Promise.all(
    pids.map(async (pid) => {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
      // Fields after the parenthesised command name: state(3) ppid(4) pgrp(5) … utime(14) stime(15) … rss(24).
      const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (!fields || !wanted.has(Number(fields[2]))) return;
      usage.cpuSeconds += (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
      usage.residentBytes += Number(fields[21]) * PAGE_BYTES;
    }),
  );
  return usage;
}

/** Bytes of the files under `directory`, not following symlinks. */
async function directorySize(directory: string): Promise<number> {
  let total = 0;
  let walked = 0;
  const pending = [directory];
  while (pending.length > 0 && walked < MAX_WALKED_ENTRIES) {
    const current = pending.pop() as string;
    const names = await readdir(current).catch(() => [] as string[]);
    for (const name of names) {
      walked += 1;
      const child = path.join(current, name);
      const stats = await lstat(child).catch(() => undefined);
      if (stats?.isDirectory()) pending.push(child);
      else if (stats) total += stats.size;
    }
  }
  return total;
}
