import type { RuntimeListResult, RuntimeStatus } from '@runtimectl/core';
import { RuntimeStatusSchema } from '@runtimectl/core';
import { Option, type Command } from 'commander';
import type { CliIo } from '../cli-io';
import { integerIn } from '../options/parse-options';
import { formatTable } from '../output/format-table';
import { RUNTIME_TABLE_HEADERS, runtimeRow } from '../output/render-records';
import { contextOf, withExamples } from './command-support';

interface LsOptions {
  status?: RuntimeStatus;
  limit?: number;
  cursor?: string;
  all?: boolean;
}

const ALL_PAGE_LIMIT = 500;

export function registerLsCommand(program: Command, io: CliIo): void {
  const command = program
    .command('ls')
    .description('list runtimes ordered by id: one page, or every page with --all')
    .addOption(new Option('--status <status>', 'only runtimes in this status').choices(RuntimeStatusSchema.options))
    .addOption(new Option('--limit <n>', 'runtimes per page (1-500; default: the daemon’s)').argParser(integerIn(1, 500)))
    .option('--cursor <cursor>', 'continue from the next_cursor of a previous page')
    .option('-a, --all', 'follow next_cursor through every page')
    .action(async (options: LsOptions, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const result: RuntimeListResult = { runtimes: [], next_cursor: null };
      let cursor = options.cursor;
      do {
        const limit = options.limit ?? (options.all ? ALL_PAGE_LIMIT : undefined);
        const page = await ctx.client.list({
          ...(options.status ? { status: options.status } : {}),
          ...(limit !== undefined ? { limit } : {}),
          ...(cursor ? { cursor } : {}),
        });
        result.runtimes.push(...page.runtimes);
        result.next_cursor = page.next_cursor;
        cursor = page.next_cursor ?? undefined;
      } while (options.all && cursor);
      const nowMs = ctx.nowMs();
      ctx.emit(result, {
        human: ({ runtimes }) =>
          runtimes.length === 0
            ? 'no runtimes'
            : formatTable(RUNTIME_TABLE_HEADERS, runtimes.map((runtime) => runtimeRow(runtime, ctx.colors, nowMs)), ctx.colors),
        quiet: ({ runtimes }) => runtimes.map((runtime) => runtime.runtime_id),
      });
      if (result.next_cursor) ctx.hint(`more runtimes: runtimectl ls --all, or --cursor ${result.next_cursor}`);
    });
  withExamples(command, 'runtimectl ls --status paused', 'runtimectl ls --all --json | jq -r ".runtimes[].runtime_id"');
}
