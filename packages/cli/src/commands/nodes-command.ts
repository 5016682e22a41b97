import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { formatTable } from '../output/format-table';
import { formatRelativeTime } from '../output/relative-time';
import { contextOf, withExamples } from './command-support';

export function registerNodesCommand(program: Command, io: CliIo): void {
  const command = program
    .command('nodes')
    .description('list the nodes of the fleet: alive or dead, runtimes each is home to, version, start, last heartbeat, URL')
    .action(async (_options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const result = await ctx.client.nodes();
      const nowMs = ctx.nowMs();
      ctx.emit(result, {
        human: ({ nodes }) =>
          formatTable(
            ['NODE', 'STATE', 'RUNTIMES', 'VERSION', 'STARTED', 'HEARTBEAT', 'URL'],
            nodes.map((node) => [
              node.node_id,
              node.alive ? ctx.colors.green('alive') : ctx.colors.red('dead'),
              String(node.runtimes),
              node.version,
              formatRelativeTime(node.started_at_ms, nowMs),
              formatRelativeTime(node.last_heartbeat_at_ms, nowMs),
              node.advertise_url ?? '-',
            ]),
            ctx.colors,
          ),
        quiet: ({ nodes }) => nodes.map((node) => node.node_id),
      });
    });
  withExamples(command, 'runtimectl nodes', 'runtimectl nodes --json | jq -r ".nodes[] | select(.alive | not) | .node_id"');
}
