import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { formatTable } from '../output/format-table';
import { formatMetadata, formatStatus } from '../output/render-records';
import { formatDuration } from '../output/format-duration';
import { formatExpiry } from '../output/format-expiry';
import { formatRetention } from '../output/format-retention';
import { formatRelativeTime } from '../output/relative-time';
import { contextOf, withExamples } from './command-support';

export function registerShowCommand(program: Command, io: CliIo): void {
  const command = program
    .command('show')
    .description('show a runtime: status, provider, lineage, metadata')
    .argument('<runtime>', 'runtime id')
    .action(async (runtimeId: string, _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const detail = await ctx.client.get(runtimeId);
      const nowMs = ctx.nowMs();
      const { runtime } = detail;
      const label = (text: string) => ctx.colors.dim(text);
      const rows: string[][] = [
        [label('runtime'), ctx.colors.bold(runtime.runtime_id)],
        [label('status'), formatStatus(runtime.status, ctx.colors)],
        [label('provider'), detail.provider],
        [label('conversation'), runtime.conversation_id],
        [label('sender'), runtime.sender_id],
        [label('created'), formatRelativeTime(runtime.created_at_ms, nowMs)],
        [label('updated'), formatRelativeTime(runtime.updated_at_ms, nowMs)],
        [label('head checkpoint'), detail.head_checkpoint_id ?? '-'],
        [label('paused at'), detail.paused_checkpoint_id ?? '-'],
        [label('parent runtime'), detail.parent_runtime_id ?? '-'],
        [label('checked out from'), detail.forked_from_checkpoint_id ?? '-'],
        [label('metadata'), formatMetadata(detail.metadata)],
      ];
      const setting = (own: boolean | null | undefined, on: string) => (own == null ? 'default' : own ? on : 'off');
      if (detail.expires_at_ms != null) {
        const expiry = formatExpiry(detail.expires_at_ms, runtime.status, nowMs);
        rows.push([label(expiry.label), expiry.text]);
      }
      const idle = detail.idle_pause_after_ms;
      rows.push([label('idle pause'), idle == null ? 'default' : idle === 0 ? 'off' : `after ${formatDuration(idle)}`]);
      rows.push([label('auto-resume'), setting(detail.auto_resume, 'on')]);
      rows.push([label('verify restores'), setting(detail.verify, 'on')]);
      rows.push([label('retention'), formatRetention(detail.retention)]);
      if (detail.last_error) rows.push([label('last error'), ctx.colors.red(detail.last_error)]);
      ctx.emit(detail, {
        human: () => formatTable(null, rows, ctx.colors),
        quiet: () => [runtime.status],
      });
    });
  withExamples(command, 'runtimectl show demo', 'runtimectl show demo --json | jq .head_checkpoint_id');
}
