import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { parseMetadataPairs } from '../options/parse-options';
import { checkpointNameOption, metadataOption } from '../options/shared-options';
import { backgroundProcessesNote } from '../output/background-processes-note';
import { formatStatus } from '../output/render-records';
import { contextOf, withExamples } from './command-support';

interface PauseOptions {
  name?: string;
  metadata?: string[];
}

export function registerPauseCommand(program: Command, io: CliIo): void {
  const command = program
    .command('pause')
    .description('snapshot a runtime and free its live sandbox; `resume` brings it back under the same id')
    .argument('<runtime>', 'runtime id')
    .addOption(checkpointNameOption('pause checkpoint'))
    .addOption(metadataOption())
    .action(async (runtimeId: string, options: PauseOptions, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const metadata = parseMetadataPairs(options.metadata);
      const result = await ctx.waitOn(`pausing ${runtimeId}…`, () =>
        ctx.client.pause({
          runtime_id: runtimeId,
          ...(options.name ? { name: options.name } : {}),
          ...(metadata ? { metadata } : {}),
        }),
      );
      ctx.emit(result, {
        human: (pause) =>
          `paused ${ctx.colors.bold(pause.runtime.runtime_id)} at ${pause.checkpoint_id}` +
          (pause.reused_backend_snapshot ? ctx.colors.dim(' (unchanged: reused the previous snapshot)') : '') +
          backgroundProcessesNote(pause.background_processes, ctx.colors),
        quiet: (pause) => [pause.checkpoint_id],
      });
    });
  withExamples(command, 'runtimectl pause demo -n "end of day"');
}

export function registerResumeCommand(program: Command, io: CliIo): void {
  const command = program
    .command('resume')
    .description('bring a paused runtime back from its pause checkpoint, under the same id')
    .argument('<runtime>', 'runtime id')
    .action(async (runtimeId: string, _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const result = await ctx.waitOn(`resuming ${runtimeId}…`, () => ctx.client.resume({ runtime_id: runtimeId }));
      ctx.emit(result, {
        human: ({ runtime }) => `resumed ${ctx.colors.bold(runtime.runtime_id)} (${formatStatus(runtime.status, ctx.colors)})`,
      });
    });
  withExamples(command, 'runtimectl resume demo');
}
