import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { contextOf, withExamples } from './command-support';

export function registerDeleteSnapshotCommand(program: Command, io: CliIo): void {
  const command = program
    .command('delete-snapshot')
    .description("delete the provider snapshot of a checkpoint (the record stays; it can no longer be checked out)")
    .argument('<checkpoint>', 'checkpoint id (rtcp_…)')
    .action(async (checkpointId: string, _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const result = await ctx.client.deleteCheckpointSnapshot({ checkpoint_id: checkpointId });
      ctx.emit(result, {
        human: (deleted) =>
          deleted.deleted_provider_snapshot
            ? `deleted the snapshot of ${deleted.checkpoint_id} (cleared from ${deleted.cleared_checkpoint_ids.length} checkpoint${deleted.cleared_checkpoint_ids.length === 1 ? '' : 's'})`
            : `${deleted.checkpoint_id} has no snapshot to delete (already deleted, or its provider has none)`,
      });
    });
  withExamples(command, 'runtimectl delete-snapshot rtcp_0194f3c2a1b07c3e9d2a4b6c8e0f1a2b');
}
