import type { SessionForkResult } from '@runtimectl/core';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { PartialFailureError } from '../errors/partial-failure-error';
import { emitChildren } from '../output/checkout-children-output';
import { childCountOption } from '../options/shared-options';
import { contextOf, withExamples } from './command-support';

interface ForkOptions {
  name?: string;
  conversation?: string;
  sender?: string;
  count?: number;
}

export function registerForkCommand(program: Command, io: CliIo): void {
  const command = program
    .command('fork')
    .description('checkpoint a runtime and check the checkpoint out as a new runtime (-n N: N of them, one call), in one step')
    .argument('<runtime>', 'runtime id')
    // `-n` is the child count (the issue's `fork RT -n 8`); the checkpoint name is `--name` only.
    .option('--name <name>', 'a name for the checkpoint')
    .addOption(childCountOption())
    .option('--conversation <id>', "conversation id of the new runtime (default: the source's)")
    .option('--sender <id>', "sender id of the new runtime (default: the source's)")
    .action(async (runtimeId: string, options: ForkOptions, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const { count } = options;
      if (count !== undefined) {
        // One call: the daemon checkpoints once and checks the checkpoint out `count` ways.
        const forked = await ctx.waitOn(`forking ${runtimeId} ${count} ways…`, () =>
          ctx.client.fork({
            runtime_id: runtimeId,
            count,
            ...(options.name ? { name: options.name } : {}),
            ...(options.conversation ? { conversation_id: options.conversation } : {}),
            ...(options.sender ? { sender_id: options.sender } : {}),
          }),
        );
        emitChildren(ctx, forked, io.setExitCode);
        return;
      }
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
      // Without -n: the shape of core's compatibility SessionForkResult (checkpoint → checkout).
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
  withExamples(command, 'runtimectl fork demo --name "before refactor"', 'TRY=$(runtimectl fork demo --quiet)', 'runtimectl fork demo -n 8 --json');
}
