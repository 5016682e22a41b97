import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { UsageError } from '../errors/usage-error';
import { saveToFile } from '../output/save-to-file';
import { contextOf, withExamples } from './command-support';

interface ExportOptions {
  output?: string;
  force?: boolean;
}

/** What `export` did, as --json prints it. */
interface ExportResult {
  runtime_id: string;
  path: string;
  /** The local file written. */
  file: string;
  size_bytes: number;
}

/** The local file to write: `-o`, else the runtime file's own name in the current directory. */
function localFileOf(path: string, output: string | undefined): string {
  if (output !== undefined) return output;
  const name = basename(path);
  if (name === '' || name === '.' || name === '..') throw new UsageError(`export: ${path} names no file; give -o <file>`);
  return name;
}

export function registerExportCommand(program: Command, io: CliIo): void {
  const command = program
    .command('export')
    .description("download a file of a runtime's workspace to a local file, streamed: any size (read-file, and cat --json, stop at the daemon's limit)")
    .argument('<runtime>', 'runtime id')
    .argument('<path>', "path relative to the runtime's workspace")
    .option('-o, --output <file>', "local file to write (default: the file's name in the current directory; - for stdout)")
    .option('-f, --force', 'overwrite the local file when it exists')
    .action(async (runtimeId: string, path: string, options: ExportOptions, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const local = localFileOf(path, options.output);
      if (local !== '-' && !options.force && existsSync(local)) throw new UsageError(`export: ${local} exists; give --force to overwrite it, or -o another file`);
      const file = await ctx.client.export({ runtime_id: runtimeId, path });
      const body = file.body as ReadableStream<Uint8Array>;
      if (local === '-') {
        await pipeline(Readable.fromWeb(body), io.stdout, { end: false });
        return;
      }
      const size = await ctx.waitOn(`downloading ${path}…`, () => saveToFile(body, resolve(local), options.force === true));
      const result: ExportResult = { runtime_id: runtimeId, path, file: local, size_bytes: size };
      ctx.emit(result, {
        human: (exported) => `exported ${exported.path} of ${exported.runtime_id} to ${exported.file} (${exported.size_bytes} bytes)`,
        quiet: (exported) => [exported.file],
      });
    });
  withExamples(command, 'runtimectl export demo out/build.tar', 'runtimectl export demo logs/run.log -o /tmp/run.log --force', 'runtimectl export demo report.json -o - | jq .');
}
