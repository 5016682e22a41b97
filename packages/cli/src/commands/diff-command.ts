import type { Command } from 'commander';
import type { CheckpointDiffResult, DiffEntry } from '@runtimectl/core';
import type { CliIo } from '../cli-io';
import { UsageError } from '../errors/usage-error';
import { nameStatusLines, statLines, summaryLine } from '../output/diff-output';
import { filePatch } from '../output/file-patch';
import { contextOf, withExamples } from './command-support';

interface DiffOptions {
  runtime?: string;
  stat?: boolean;
  nameStatus?: boolean;
  patch?: boolean;
}

/** The largest page the daemon serves: a diff is read whole, page by page. */
const PAGE = 500;

/** A file's mode as git prints it (regular file type bits and the permissions). */
const gitMode = (mode: number | null) => (0o100000 + (mode ?? 0)).toString(8);

export function registerDiffCommand(program: Command, io: CliIo): void {
  const command = program
    .command('diff')
    .description("show what changed between two checkpoints, or between a checkpoint and a runtime's live workspace")
    .argument('<from>', 'checkpoint id')
    .argument('[to]', 'checkpoint id (or --runtime for a live workspace)')
    .option('--runtime <runtime>', "compare with this runtime's live workspace instead of a checkpoint")
    .option('--stat', 'one line per changed file with its sizes, then a summary (as git diff --stat)')
    .option('--name-status', 'one line per changed path: A, D, M or T and the path (as git diff --name-status)')
    .option('-p, --patch', "unified diffs of the changed text files (needs a provider that reads a snapshot's files: fs, memory)")
    .action(async (from: string, to: string | undefined, options: DiffOptions, cmd: Command) => {
      if ((to === undefined) === (options.runtime === undefined)) throw new UsageError('give either a second checkpoint or --runtime <runtime>, not both');
      if ([options.stat, options.nameStatus, options.patch].filter(Boolean).length > 1) throw new UsageError('--stat, --name-status and --patch are alternatives: give one');
      const ctx = contextOf(cmd, io);
      const target = to !== undefined ? { to_checkpoint_id: to } : { to_runtime_id: options.runtime! };
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
      if (options.patch && !ctx.json && !ctx.quiet) {
        const read = async (side: { checkpoint_id: string } | { runtime_id: string }, path: string) =>
          Buffer.from((await ctx.client.readFile({ ...side, path })).content_base64, 'base64');
        const after = to !== undefined ? { checkpoint_id: to } : { runtime_id: options.runtime! };
        for (const entry of result.entries) {
          if (entry.change === 'mode_changed' && entry.new_kind === 'file') {
            ctx.print(`diff --git a/${entry.path} b/${entry.path}\nold mode ${gitMode(entry.old_mode)}\nnew mode ${gitMode(entry.new_mode)}`);
            continue;
          }
          if (entry.old_kind !== 'file' && entry.new_kind !== 'file') continue;
          const before = entry.old_kind === 'file' ? await read({ checkpoint_id: from }, entry.path) : null;
          const now = entry.new_kind === 'file' ? await read(after, entry.path) : null;
          io.stdout.write(filePatch(entry.path, before, now));
        }
        return;
      }
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
