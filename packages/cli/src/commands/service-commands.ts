import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { formatTable } from '../output/format-table';
import { contextOf, withExamples } from './command-support';

export function registerProvidersCommand(program: Command, io: CliIo): void {
  const command = program
    .command('providers')
    .description('list the providers the daemon runs and what each can do')
    .action(async (_options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const result = await ctx.client.providers();
      const yesNo = (value: boolean) => (value ? ctx.colors.green('yes') : ctx.colors.dim('no'));
      ctx.emit(result, {
        human: ({ providers }) =>
          formatTable(
            ['PROVIDER', 'CHECKPOINT', 'SNAPSHOT', 'CHECKOUT', 'PAUSE', 'DELETE-SNAPSHOT', 'VERIFY', 'IN FORCE'],
            providers.map(({ provider, capabilities, in_force }) => [
              provider,
              yesNo(capabilities.checkpoint),
              capabilities.snapshot_kind ? ctx.colors.green(capabilities.snapshot_kind) : yesNo(capabilities.snapshot),
              yesNo(capabilities.checkout),
              yesNo(capabilities.pause),
              yesNo(capabilities.delete_snapshot),
              // Whether checkout and resume verify the restored workspace unless a runtime says otherwise.
              capabilities.restore_verification === 'default' ? ctx.colors.green('default') : capabilities.restore_verification === 'opt_in' ? 'opt-in' : ctx.colors.dim('-'),
              // The settings it chose for this machine (reasons: --json).
              in_force && Object.keys(in_force).length > 0 ? Object.entries(in_force).map(([name, { value }]) => `${name}=${value}`).join(' ') : ctx.colors.dim('-'),
            ]),
            ctx.colors,
          ),
        quiet: ({ providers }) => providers.map(({ provider }) => provider),
      });
    });
  withExamples(command, 'runtimectl providers');
}

export function registerHealthCommand(program: Command, io: CliIo): void {
  const command = program
    .command('health')
    .description('check that the daemon answers (needs no token)')
    .action(async (_options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const result = await ctx.client.health();
      ctx.emit(result, {
        human: (health) => `runtimed ${health.version} at ${ctx.url}: ${ctx.colors.green(health.status)}`,
        quiet: (health) => [health.status],
      });
    });
  withExamples(command, 'runtimectl health', 'runtimectl --url http://build-box:7333 health --json');
}
