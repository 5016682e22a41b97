import type { Command } from 'commander';
import type { RetentionPreviewResult } from '@runtimectl/core';
import type { CliIo } from '../cli-io';
import { formatTable } from '../output/format-table';
import { contextOf, withExamples } from './command-support';

export function registerPinCommand(program: Command, io: CliIo): void {
  const command = program
    .command('pin')
    .description('pin a checkpoint: no retention policy deletes its snapshot (--unpin gives it back to the policies)')
    .argument('<checkpoint>', 'checkpoint id (rtcp_…)')
    .option('--unpin', 'unpin it instead')
    .action(async (checkpointId: string, options: { unpin?: boolean }, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const result = await ctx.client.pinCheckpoint({ checkpoint_id: checkpointId, pinned: !options.unpin });
      ctx.emit(result, {
        human: ({ checkpoint }) => `${checkpoint.checkpoint_id} ${checkpoint.pinned ? 'pinned' : 'unpinned'}`,
        quiet: ({ checkpoint }) => [checkpoint.checkpoint_id],
      });
    });
  withExamples(command, 'runtimectl pin rtcp_0194f3c2a1b07c3e9d2a4b6c8e0f1a2b', 'runtimectl pin rtcp_0194f3c2a1b07c3e9d2a4b6c8e0f1a2b --unpin');
}

/** Every page of the preview (its summary counts them all). */
async function wholePreview(fetchPage: (cursor: string | undefined) => Promise<RetentionPreviewResult>): Promise<RetentionPreviewResult> {
  const first = await fetchPage(undefined);
  const checkpoints = [...first.checkpoints];
  let cursor = first.next_cursor;
  while (cursor !== null) {
    const page = await fetchPage(cursor);
    checkpoints.push(...page.checkpoints);
    cursor = page.next_cursor;
  }
  return { ...first, checkpoints, next_cursor: null };
}

export function registerRetentionCommand(program: Command, io: CliIo): void {
  const retention = program.command('retention').description('snapshot retention policies');
  withExamples(retention, 'runtimectl retention preview');
  const command = retention
    .command('preview')
    .description('what a retention pass run now would delete, and why each snapshot is kept or deleted (deletes nothing)')
    .option('-r, --runtime <runtime>', 'only this runtime\'s checkpoints')
    .action(async (options: { runtime?: string }, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const result = await wholePreview((cursor) =>
        ctx.client.retentionPreview({ limit: 500, ...(options.runtime ? { runtime_id: options.runtime } : {}), ...(cursor ? { cursor } : {}) }),
      );
      ctx.emit(result, {
        human: ({ checkpoints, summary }) =>
          [
            formatTable(
              ['CHECKPOINT', 'RUNTIME', 'SNAPSHOT', 'WHY'],
              checkpoints.map((verdict) => [
                verdict.checkpoint_id,
                verdict.runtime_id,
                verdict.delete ? ctx.colors.red('delete') : ctx.colors.green('keep'),
                verdict.reasons.join(', '),
              ]),
              ctx.colors,
            ),
            `${summary.snapshots_to_delete} snapshot${summary.snapshots_to_delete === 1 ? '' : 's'} would be deleted (${summary.checkpoints_to_clear} checkpoint${summary.checkpoints_to_clear === 1 ? '' : 's'} cleared)`,
          ].join('\n'),
        quiet: ({ checkpoints }) => checkpoints.filter((verdict) => verdict.delete).map((verdict) => verdict.checkpoint_id),
      });
    });
  withExamples(command, 'runtimectl retention preview', 'runtimectl retention preview --runtime my-agent --json');
}
