import type { RetentionSettings } from '@runtimectl/core';
import { formatDuration } from './format-duration';

/** A runtime's own retention settings as `show` prints them: `keep last 3, expire unused after 7d`, `default` when it has none. */
export function formatRetention(retention: RetentionSettings): string {
  const rule = (value: number | null, shown: (n: number) => string) => (value === null ? 'off' : shown(value));
  const parts = [
    ...(retention.keep_last !== undefined ? [`keep last ${rule(retention.keep_last, String)}`] : []),
    ...(retention.expire_unused_after_ms !== undefined ? [`expire unused ${rule(retention.expire_unused_after_ms, (ms) => `after ${formatDuration(ms)}`)}`] : []),
  ];
  return parts.length === 0 ? 'default' : parts.join(', ');
}
