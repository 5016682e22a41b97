import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { parseMetadataPairs } from '../options/parse-options';
import { emitChildren } from '../output/checkout-children-output';
import { childCountOption, metadataOption } from '../options/shared-options';
import { contextOf, withExamples } from './command-support';

interface CheckoutOptions {
  conversation?: string;
  sender?: string;
  metadata?: string[];
  count?: number;
}

export function registerCheckoutCommand(program: Command, io: CliIo): void {
  const command = program
    .command('checkout')
    .description('start a new runtime from a checkpoint (a branch; the source runtime is untouched)')
    .argument('<checkpoint>', 'checkpoint id (rtcp_…)')
    .option('--conversation <id>', "conversation id of the new runtime (default: the source's)")
    .option('--sender <id>', "sender id of the new runtime (default: the source's)")
    .addOption(metadataOption("metadata merged over the source's; values are JSON when they parse, else text"))
    .addOption(childCountOption())
    .action(async (checkpointId: string, options: CheckoutOptions, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const metadata = parseMetadataPairs(options.metadata);
      const request = {
        checkpoint_id: checkpointId,
        ...(options.conversation ? { conversation_id: options.conversation } : {}),
        ...(options.sender ? { sender_id: options.sender } : {}),
        ...(metadata ? { metadata } : {}),
      };
      const { count } = options;
      if (count !== undefined) {
        const children = await ctx.waitOn(`checking out ${checkpointId} ${count} ways…`, () => ctx.client.checkout({ ...request, count }));
        emitChildren(ctx, children, io.setExitCode);
        return;
      }
      const result = await ctx.waitOn(`checking out ${checkpointId}…`, () => ctx.client.checkout(request));
      ctx.emit(result, {
        human: (checkout) =>
          `checked out ${checkout.checkpoint_id} of ${checkout.source_runtime_id} as ${ctx.colors.bold(checkout.runtime.runtime_id)}`,
        quiet: (checkout) => [checkout.runtime.runtime_id],
      });
    });
  withExamples(
    command,
    'runtimectl checkout rtcp_0194f3c2a1b07c3e9d2a4b6c8e0f1a2b',
    'BRANCH=$(runtimectl checkout "$CP" --quiet)',
    'runtimectl checkout "$CP" -n 8 --json',
  );
}
