import type { Command } from 'commander';
import type { CheckpointDiffResult, DiffEntry } from '@runtimectl/core';
import type { CliContext } from '../cli-context';
import type { CliIo } from '../cli-io';
import { UsageError } from '../errors/usage-error';
import { nameStatusLines, statLines, summaryLine } from '../output/diff-output';
import { entryPatch, type SideReader } from '../output/diff-patch';
import { explainUnreadableSnapshot } from './diff-patch-errors';
import { contextOf, withExamples } from './command-support';

interface DiffOptions {
  runtime?: string;
  stat?: boolean;
  nameStatus?: boolean;
  patch?: boolean;
}

/** The largest page the daemon serves: a diff is read whole, page by page. */
const PAGE = 500;

/** What `from` is compared with: another checkpoint, or a runtime's live workspace. */
type Target = { to_checkpoint_id: string } | { to_runtime_id: string };

function targetOf(to: string | undefined, runtime: string | undefined): Target {
  if (to === undefined && runtime === undefined) {
    throw new UsageError('diff needs something to compare with: a second checkpoint, or --runtime <runtime> for its live workspace');
  }
  if (to !== undefined && runtime !== undefined) throw new UsageError('give either a second checkpoint or --runtime <runtime>, not both');
  return to !== undefined ? { to_checkpoint_id: to } : { to_runtime_id: runtime! };
}

/** Prints the patch of every entry, reading changed files' contents through read-file (`from` by checkpoint). */
async function printPatch(ctx: CliContext, from: string, target: Target, entries: readonly DiffEntry[]): Promise<void> {
  const sides = { old: { checkpoint_id: from }, new: 'to_checkpoint_id' in target ? { checkpoint_id: target.to_checkpoint_id } : { runtime_id: target.to_runtime_id } };
  const read: SideReader = async (side, path) => {
    try {
      return Buffer.from((await ctx.client.readFile({ ...sides[side], path })).content_base64, 'base64');
    } catch (error) {
      throw await explainUnreadableSnapshot(ctx, error, from, target);
    }
  };
  for (const entry of entries) ctx.io.stdout.write(await entryPatch(entry, read));
}

export function registerDiffCommand(program: Command, io: CliIo): void {
  const command = program
    .command('diff')
    .description("show what changed between two checkpoints, or between a checkpoint and a runtime's live workspace")
    .argument('<from>', 'checkpoint id')
    .argument('[to]', 'checkpoint id (or --runtime for a live workspace)')
    .option('--runtime <runtime>', "compare with this runtime's live workspace instead of a checkpoint")
    .option('--stat', 'one line per changed file with its sizes, then a summary (as git diff --stat)')
    .option('--name-status', 'one line per changed path: A, D, M or T and the path (as git diff --name-status)')
    .option('-p, --patch', "unified diffs of changed files and symlinks, as git prints them (needs a provider that reads a snapshot's files: fs, memory)")
    .action(async (from: string, to: string | undefined, options: DiffOptions, cmd: Command) => {
      const target = targetOf(to, options.runtime);
      if ([options.stat, options.nameStatus, options.patch].filter(Boolean).length > 1) throw new UsageError('--stat, --name-status and --patch are alternatives: give one');
      const ctx = contextOf(cmd, io);
      const result = await ctx.waitOn(`comparing ${from}…`, async () => {
        const entries: DiffEntry[] = [];
        let page: CheckpointDiffResult;
        let cursor: string | null = null;
        do {
          page = await ctx.client.diff({ from_checkpoint_id: from, ...target, limit: PAGE, ...(cursor ? { cursor } : {}) });
          entries.push(...page.entries);
          cursor = page.next_cursor;
        } while (cursor !== null);
        return { ...page, entries, next_cursor: null };
      });
      if (options.patch && !ctx.json && !ctx.quiet) return printPatch(ctx, from, target, result.entries);
      ctx.emit(result, {
        human: (diff) => {
          if (options.stat) return statLines(diff.entries, diff.summary);
          const lines = nameStatusLines(diff.entries);
          return options.nameStatus ? lines : [...lines, summaryLine(diff.summary)];
        },
        quiet: (diff) => diff.entries.map(({ path }) => path),
      });
    });
  withExamples(command, 'runtimectl diff rtcp_1… rtcp_2… --stat', 'runtimectl diff rtcp_1… --runtime demo --name-status', 'runtimectl diff rtcp_1… rtcp_2… --json', 'runtimectl diff rtcp_1… rtcp_2… --patch');
}
