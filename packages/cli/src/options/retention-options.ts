import { Option } from 'commander';
import type { RetentionSettings } from '@runtimectl/core';
import { durationMs, integerIn, orKeywords } from './parse-options';

/** A rule's value from the command line: a number sets it, `off` turns it off for the runtime, `default` gives it back to the daemon. */
export type RuleValue = number | 'off' | 'default';

export interface RetentionOptions {
  keepLast?: RuleValue;
  expireUnusedAfter?: RuleValue;
}

/**
 * `--keep-last` and `--expire-unused-after`, the runtime's own snapshot retention (open takes
 * `off`; update also `default`).
 */
export function retentionOptions(keywords: Array<'off' | 'default'>): Option[] {
  const words = keywords.join(', ');
  return [
    new Option(`--keep-last <n>`, `keep the snapshots of its newest N snapshotted checkpoints (${words})`).argParser(orKeywords(integerIn(1, 1_000_000), ...keywords)),
    new Option('--expire-unused-after <duration>', `delete its snapshots not used for this long (7d, 12h; ${words})`).argParser(
      orKeywords(durationMs(1, Number.MAX_SAFE_INTEGER), ...keywords),
    ),
  ];
}

/** `current` (the runtime's own settings) with the options applied; undefined when none was given. */
export function retentionWith(current: RetentionSettings, options: RetentionOptions): RetentionSettings | undefined {
  if (options.keepLast === undefined && options.expireUnusedAfter === undefined) return undefined;
  const settings: RetentionSettings = { ...current };
  const apply = (key: keyof RetentionSettings, value: RuleValue | undefined) => {
    if (value === 'default') delete settings[key];
    else if (value !== undefined) settings[key] = value === 'off' ? null : value;
  };
  apply('keep_last', options.keepLast);
  apply('expire_unused_after_ms', options.expireUnusedAfter);
  return settings;
}
