import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { contextOf, withExamples } from './command-support';

interface CloseOptions {
  cascade?: boolean;
  keepSnapshots?: boolean;
}

export function registerCloseCommand(program: Command, io: CliIo): void {
  const command = program
    .command('close')
    .description('close a runtime: release its sandbox and delete the snapshots nothing else keeps (closing twice is a no-op)')
    .argument('<runtime>', 'runtime id')
    .option('--cascade', 'close the runtimes checked out from it first, recursively')
    .option('--keep-snapshots', 'keep its provider snapshots, so its checkpoints can still be checked out')
    .option('--no-keep-snapshots', 'delete the snapshots nothing else keeps, also those an earlier close kept (the default on a first close)')
    .action(async (runtimeId: string, options: CloseOptions, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const result = await ctx.client.close({
        runtime_id: runtimeId,
        ...(options.cascade ? { cascade: true } : {}),
        // Omitted on a re-close keeps the earlier choice (docs/http-api.md): send it only when given.
        ...(options.keepSnapshots !== undefined ? { keep_snapshots: options.keepSnapshots } : {}),
      });
      ctx.emit(result, {
        human: (closed) => {
          const snapshots = closed.deleted_snapshot_ids.length;
          const deleted = `deleted ${snapshots} snapshot${snapshots === 1 ? '' : 's'}`;
          if (closed.closed_runtime_ids.length === 0) {
            return `${closed.runtime.runtime_id} was already closed${snapshots > 0 ? `; ${deleted}` : ''}`;
          }
          const parts = [`closed ${closed.closed_runtime_ids.join(', ')}`];
          if (closed.released_backend) parts.push('released its sandbox');
          parts.push(deleted);
          return parts.join('; ');
        },
        quiet: (closed) => closed.closed_runtime_ids,
      });
    });
  withExamples(command, 'runtimectl close demo --cascade', 'runtimectl close demo --keep-snapshots', 'runtimectl close demo --no-keep-snapshots');
}
