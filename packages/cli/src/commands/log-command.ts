import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { renderLineageGraph } from '../graph/lineage-graph';
import { buildLineageTree } from '../graph/lineage-tree';
import { allCheckpoints, loadLineage } from '../graph/load-lineage';
import { formatTable } from '../output/format-table';
import { CHECKPOINT_TABLE_HEADERS, checkpointRow } from '../output/render-records';
import { contextOf, withExamples } from './command-support';

interface LogOptions {
  graph?: boolean;
}

export function registerLogCommand(program: Command, io: CliIo): void {
  const command = program
    .command('log')
    .description("a runtime's checkpoints, newest first; --graph draws its lineage with every checkout, recursively")
    .argument('<runtime>', 'runtime id')
    .option('--graph', 'draw the lineage as a tree, like git log --graph: @ runtimes, * checkpoints and pauses, |/ checkouts')
    .action(async (runtimeId: string, options: LogOptions, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      if (options.graph) {
        const lineage = await loadLineage(ctx.client, runtimeId);
        if (ctx.json) return ctx.printJson(buildLineageTree(lineage));
        const lines = renderLineageGraph(lineage, { nowMs: ctx.nowMs(), colors: ctx.colors });
        ctx.emit(lineage, {
          human: () => lines,
          quiet: () => lineage.runtimes.map((detail) => detail.runtime.runtime_id),
        });
        return;
      }
      // Fails with runtime_not_found for an unknown id, like every other command.
      const checkpoints = await allCheckpoints(ctx.client, runtimeId);
      const nowMs = ctx.nowMs();
      ctx.emit(
        { checkpoints, next_cursor: null },
        {
          human: () =>
            checkpoints.length === 0
              ? `no checkpoints yet: runtimectl checkpoint ${runtimeId}`
              : formatTable(CHECKPOINT_TABLE_HEADERS, checkpoints.map((checkpoint) => checkpointRow(checkpoint, ctx.colors, nowMs)), ctx.colors),
          quiet: () => checkpoints.map((checkpoint) => checkpoint.checkpoint_id),
        },
      );
    });
  withExamples(command, 'runtimectl log demo', 'runtimectl log demo --graph');
}
