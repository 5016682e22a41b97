import type { SessionForkResult } from '@runtimectl/core';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { PartialFailureError } from '../errors/partial-failure-error';
import { checkpointNameOption } from '../options/shared-options';
import { contextOf, withExamples } from './command-support';

interface ForkOptions {
  name?: string;
  conversation?: string;
  sender?: string;
}

export function registerForkCommand(program: Command, io: CliIo): void {
  const command = program
    .command('fork')
    .description('checkpoint a runtime and check the checkpoint out as a new runtime, in one step')
    .argument('<runtime>', 'runtime id')
    .addOption(checkpointNameOption())
    .option('--conversation <id>', "conversation id of the new runtime (default: the source's)")
    .option('--sender <id>', "sender id of the new runtime (default: the source's)")
    .action(async (runtimeId: string, options: ForkOptions, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const checkpoint = await ctx.waitOn(`checkpointing ${runtimeId}…`, () =>
        ctx.client.checkpoint({ runtime_id: runtimeId, ...(options.name ? { name: options.name } : {}) }),
      );
      let checkout;
      try {
        checkout = await ctx.waitOn(`checking out ${checkpoint.checkpoint_id}…`, () =>
          ctx.client.checkout({
            checkpoint_id: checkpoint.checkpoint_id,
            ...(options.conversation ? { conversation_id: options.conversation } : {}),
            ...(options.sender ? { sender_id: options.sender } : {}),
          }),
        );
      } catch (error) {
        // The first half happened: say so, or the user retries and piles up checkpoints.
        throw new PartialFailureError(`checkpoint ${checkpoint.checkpoint_id} was made, but checking it out failed`, error);
      }
      // The shape of core's SessionForkResult (fork is checkpoint → checkout; it has no route).
      const result: SessionForkResult = {
        parent: checkpoint.runtime,
        child: checkout.runtime,
        checkpoint_id: checkpoint.checkpoint_id,
        reused_backend_snapshot: checkpoint.reused_backend_snapshot,
      };
      ctx.emit(result, {
        human: (fork) => `forked ${fork.parent.runtime_id} at ${fork.checkpoint_id} into ${ctx.colors.bold(fork.child.runtime_id)}`,
        quiet: (fork) => [fork.child.runtime_id],
      });
    });
  withExamples(command, 'runtimectl fork demo -n "before refactor"', 'TRY=$(runtimectl fork demo --quiet)');
}
