import type { CheckpointTreeEntry, CheckpointTreeResult } from '@runtimectl/core';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { quotePath } from '../output/quote-path';
import { contextOf, withExamples } from './command-support';

/** The largest page the daemon serves: a directory is read whole, page by page. */
const PAGE_LIMIT = 500;

/** The file-type bits git prints before the permission bits (the manifest keeps the permission bits alone). */
const TYPE_BITS: Record<CheckpointTreeEntry['kind'], number> = { file: 0o100000, directory: 0o040000, symlink: 0o120000 };

/** `git ls-tree -l` columns: mode (octal, with its type), kind, size (`-` for a directory), then the name (`-> target` for a symlink). */
function entryLine(entry: CheckpointTreeEntry, directory: string): string {
  const mode = (TYPE_BITS[entry.kind] | (entry.mode & 0o7777)).toString(8).padStart(6, '0');
  const size = entry.kind === 'directory' ? '-' : String(entry.size);
  const path = directory ? `${directory}/${entry.name}` : entry.name;
  return `${mode} ${entry.kind.padEnd(9)} ${size.padStart(8)}\t${quotePath(path)}${entry.kind === 'symlink' ? ` -> ${quotePath(entry.target ?? '')}` : ''}`;
}

export function registerLsTreeCommand(program: Command, io: CliIo): void {
  const command = program
    .command('ls-tree')
    .description("list a directory of a checkpoint as its content manifest records it (nothing is restored), as git ls-tree -l does")
    .argument('<checkpoint>', 'checkpoint id')
    .argument('[path]', 'directory relative to the workspace root (default: the root)')
    .action(async (checkpointId: string, path: string | undefined, _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      let page = await ctx.client.checkpointTree(checkpointId, { ...(path ? { path } : {}), limit: PAGE_LIMIT });
      const result: CheckpointTreeResult = { ...page, entries: [...page.entries] };
      while (page.next_cursor) {
        page = await ctx.client.checkpointTree(checkpointId, { ...(path ? { path } : {}), limit: PAGE_LIMIT, cursor: page.next_cursor });
        result.entries.push(...page.entries);
      }
      result.next_cursor = null;
      ctx.emit(result, {
        human: ({ entries, path: directory }) => (entries.length === 0 ? `${quotePath(directory) || '/'}: empty directory` : entries.map((entry) => entryLine(entry, directory))),
        quiet: ({ entries, path: directory }) => entries.map((entry) => quotePath(directory ? `${directory}/${entry.name}` : entry.name)),
      });
    });
  withExamples(command, 'runtimectl ls-tree rtcp_0123… src', 'runtimectl ls-tree rtcp_0123… --json | jq -r ".entries[].name"');
}
