import type { QuotaLimits, WorkspaceQuota } from '../quota/workspace-quota';
import type { TreeUsage } from '../quota/workspace-usage';
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
 * exec returned) and kills the group when it took the workspace over the quota (bytes or
 * entries). A command that starts over the quota (`start`, measured before it) is only stopped if
 * it grows the usage further, so `rm` can still clean up.
 */
export function watchQuota(pgid: number, root: string, quota: WorkspaceQuota, start: TreeUsage, killGraceMs: number): QuotaWatch {
  let killed: keyof QuotaLimits | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let sampling: Promise<void> = Promise.resolve();
  let background = false;

  const sample = async (): Promise<void> => {
    const began = Date.now();
    const used = await quota.usage(root, !background).catch(() => undefined);
    const over = used && quota.overAndGrowing(used, start);
    if (over && !killed && groupAlive(pgid)) {
      killed = over;
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
      if (killed) return note(quota.describe(killed), 'the command was stopped');
      if (!groupAlive(pgid)) {
        stopped = true;
        clearTimeout(timer);
      }
      if (!failed) return undefined;
      const used = await quota.usage(root, true).catch(() => undefined);
      const full = used && quota.atQuota(used);
      return full ? note(quota.describe(full), 'writes beyond it fail until files are deleted') : undefined;
    },
  };
}

function note(quota: string, outcome: string): WatchOutcome {
  return { note: `\nruntimectl: workspace quota of ${quota} reached: ${outcome}\n` };
}
