import type { WorkspaceQuota } from '../quota/workspace-quota';
import type { CommandWatch, WatchOutcome } from './command-watch';
import { groupAlive, terminateGroup } from './process-groups';

/** Sampling period floor; a slow `du` (a big tree) stretches it to FOLLOW_MEASUREMENT × its duration. */
const MIN_INTERVAL_MS = 200;
const FOLLOW_MEASUREMENT = 5;
/**
 * Once exec returned, background jobs left in the group (a dev server) are sampled this rarely,
 * re-using any measurement under a second old: a long-lived job costs at most one `du` a second
 * per workspace (not one every 200 ms), and may overshoot the quota by what it writes in a second.
 */
const BACKGROUND_INTERVAL_MS = 1_000;

/**
 * `finish`: the stderr note for the command's answer when the watchdog stopped it, or when it
 * `failed` (non-zero exit or a signal: a writer past RLIMIT_FSIZE gets SIGXFSZ) and the workspace
 * is at its quota. A command that succeeded costs no measurement there.
 */
export type QuotaWatch = CommandWatch;

/**
 * Samples the workspace's usage while process group `pgid` runs (background jobs included, after
 * exec returned) and kills the group when it took the workspace over the quota. A command that
 * starts over the quota (`startBytes`, measured before it) is only stopped if it grows the usage
 * further, so `rm` can still clean up.
 */
export function watchQuota(pgid: number, root: string, quota: WorkspaceQuota, startBytes: number, killGraceMs: number): QuotaWatch {
  let killed = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let sampling: Promise<void> = Promise.resolve();
  let background = false;

  const sample = async (): Promise<void> => {
    const began = Date.now();
    let used: number;
    try {
      used = await quota.usage(root, !background);
    } catch {
      used = -1;
    }
    if (used > quota.quotaBytes && used > startBytes && !killed && groupAlive(pgid)) {
      killed = true;
      quota.refused('exec');
      await terminateGroup(pgid, killGraceMs);
    }
    if (stopped || killed || !groupAlive(pgid)) return;
    schedule(Math.max(background ? BACKGROUND_INTERVAL_MS : MIN_INTERVAL_MS, FOLLOW_MEASUREMENT * (Date.now() - began)));
  };
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      sampling = sample();
    }, ms);
    timer.unref();
  };
  schedule(MIN_INTERVAL_MS);

  return {
    async finish(failed) {
      await sampling;
      background = true;
      quota.invalidate(root);
      if (killed) return note(quota.quotaBytes, 'the command was stopped');
      if (!groupAlive(pgid)) {
        stopped = true;
        clearTimeout(timer);
      }
      if (!failed) return undefined;
      const used = await quota.usage(root, true).catch(() => 0);
      return used >= quota.quotaBytes ? note(quota.quotaBytes, 'writes beyond it fail until files are deleted') : undefined;
    },
  };
}

function note(quotaBytes: number, outcome: string): WatchOutcome {
  return { note: `\nruntimectl: workspace quota of ${quotaBytes} bytes reached: ${outcome}\n` };
}
