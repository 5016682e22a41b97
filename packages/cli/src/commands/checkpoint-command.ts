import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { parseMetadataPairs } from '../options/parse-options';
import { backgroundProcessesNote } from '../output/background-processes-note';
import { checkpointNameOption, metadataOption } from '../options/shared-options';
import { skippedPathsLine } from '../output/skipped-paths';
import { contextOf, withExamples } from './command-support';

interface CheckpointOptions {
  name?: string;
  metadata?: string[];
}

export function registerCheckpointCommand(program: Command, io: CliIo): void {
  const command = program
    .command('checkpoint')
    .description('record a checkpoint of a runtime (snapshots its sandbox, or reuses the last snapshot when nothing changed and nothing ran)')
    .argument('<runtime>', 'runtime id')
    .addOption(checkpointNameOption())
    .addOption(metadataOption())
    .action(async (runtimeId: string, options: CheckpointOptions, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const metadata = parseMetadataPairs(options.metadata);
      const result = await ctx.waitOn(`checkpointing ${runtimeId}…`, () =>
        ctx.client.checkpoint({
          runtime_id: runtimeId,
          ...(options.name ? { name: options.name } : {}),
          ...(metadata ? { metadata } : {}),
        }),
      );
      ctx.emit(result, {
        human: (checkpoint) => [
          `checkpoint ${ctx.colors.bold(checkpoint.checkpoint_id)} of ${checkpoint.runtime.runtime_id}` +
            `${checkpoint.name ? ` "${checkpoint.name}"` : ''}` +
            (checkpoint.reused_backend_snapshot ? ctx.colors.dim(' (unchanged: reused the previous snapshot)') : '') +
            backgroundProcessesNote(checkpoint.background_processes, ctx.colors),
          ...(checkpoint.skipped_paths?.length ? [skippedPathsLine(checkpoint.skipped_paths)] : []),
        ],
        quiet: (checkpoint) => [checkpoint.checkpoint_id],
      });
    });
  withExamples(command, 'runtimectl checkpoint demo -n "tests pass" -m build=42', 'CP=$(runtimectl checkpoint demo --quiet)');
}
