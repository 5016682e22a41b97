import type { CheckpointView, RuntimeRecord, RuntimeStatus } from '@runtimectl/core';
import type { Colors } from './colors';
import { formatRelativeTime } from './relative-time';

/** A runtime status in a colour that tells it apart at a glance (when colour is on). */
export function formatStatus(status: RuntimeStatus, colors: Colors): string {
  switch (status) {
    case 'idle':
      return colors.green(status);
    case 'running':
      return colors.yellow(status);
    case 'paused':
      return colors.cyan(status);
    case 'failed':
      return colors.red(status);
    case 'closed':
      return colors.dim(status);
  }
}

export const RUNTIME_TABLE_HEADERS = ['RUNTIME', 'STATUS', 'CONVERSATION', 'SENDER', 'CREATED', 'UPDATED'];

export function runtimeRow(runtime: RuntimeRecord, colors: Colors, nowMs: number): string[] {
  return [
    runtime.runtime_id,
    formatStatus(runtime.status, colors),
    runtime.conversation_id,
    runtime.sender_id,
    formatRelativeTime(runtime.created_at_ms, nowMs),
    formatRelativeTime(runtime.updated_at_ms, nowMs),
  ];
}

export const CHECKPOINT_TABLE_HEADERS = ['CHECKPOINT', 'KIND', 'NAME', 'CREATED', 'SNAPSHOT'];

export function checkpointRow(checkpoint: CheckpointView, colors: Colors, nowMs: number): string[] {
  return [
    checkpoint.checkpoint_id,
    checkpoint.kind === 'pause' ? colors.cyan('pause') : 'checkpoint',
    checkpoint.name ?? '',
    formatRelativeTime(checkpoint.created_at_ms, nowMs),
    checkpoint.has_provider_snapshot ? 'yes' : colors.dim('none'),
  ];
}

/** Metadata on one line, or "-" when empty. */
export function formatMetadata(metadata: Record<string, unknown>): string {
  return Object.keys(metadata).length === 0 ? '-' : JSON.stringify(metadata);
}
