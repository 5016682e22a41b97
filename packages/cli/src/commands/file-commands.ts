import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import { PayloadTooLargeError } from '@runtimectl/client';
import { ExplainedError } from '../errors/explained-error';
import { UsageError } from '../errors/usage-error';
import { contextOf, withExamples } from './command-support';

export function registerCatCommand(program: Command, io: CliIo): void {
  const command = program
    .command('cat')
    .description("print a file of a runtime's workspace, byte for byte")
    .argument('<runtime>', 'runtime id')
    .argument('<path>', "path relative to the runtime's workspace")
    .action(async (runtimeId: string, path: string, _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      if (ctx.json) {
        const read = await ctx.client.readFile({ runtime_id: runtimeId, path }).catch((error: unknown) => {
          throw PayloadTooLargeError.isInstance(error)
            ? new ExplainedError(`${(error as Error).message} (payload_too_large). \`runtimectl export ${runtimeId} ${path}\` downloads it, whatever its size.`, error)
            : error;
        });
        ctx.printJson(read);
        return;
      }
      // export streams, so a large file never sits in memory as base64.
      const file = await ctx.client.export({ runtime_id: runtimeId, path });
      await pipeline(Readable.fromWeb(file.body as import('node:stream/web').ReadableStream), io.stdout, { end: false });
    });
  withExamples(command, 'runtimectl cat demo notes/plan.md', 'runtimectl cat demo out.tar > out.tar');
}

export function registerWriteCommand(program: Command, io: CliIo): void {
  const command = program
    .command('write')
    .description("write a file into a runtime's workspace from a local file or stdin")
    .argument('<runtime>', 'runtime id')
    .argument('<path>', "path relative to the runtime's workspace (parent directories are created)")
    .argument('[source]', 'local file to upload, or - for stdin (the default when stdin is a pipe)')
    .action(async (runtimeId: string, path: string, source: string | undefined, _options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const content = await readSource(source, io);
      const result = await ctx.client.writeFileBytes(runtimeId, path, content);
      ctx.emit(result, {
        human: (written) => `${written.created ? 'created' : 'overwrote'} ${written.path} (${content.byteLength} bytes)`,
      });
    });
  withExamples(command, 'runtimectl write demo notes/plan.md ./plan.md', "echo 'hello' | runtimectl write demo hello.txt -");
}

async function readSource(source: string | undefined, io: CliIo): Promise<Buffer> {
  if (source !== undefined && source !== '-') {
    try {
      return await readFile(source);
    } catch (error) {
      throw new UsageError(`write: cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  if (source === undefined && io.stdin.isTTY) {
    throw new UsageError('write: give a file to upload, or pipe the content in (runtimectl write <runtime> <path> - < file)');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}
