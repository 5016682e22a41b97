import type { Command } from 'commander';
import type { GlobalOptions } from '../cli-context';
import { withExamples } from './command-support';

export function registerMcpCommand(program: Command): void {
  const command = program
    .command('mcp')
    .description('serve runtimectl to an MCP client over stdio (exec, files, checkpoint, log, diff, checkout, fork, pause, resume): what an agent launches; give it a key scoped to its runtime')
    .option('--runtime <id>', "the agent's runtime, named in the server's instructions (RUNTIMECTL_RUNTIME)")
    .action(async (options: { runtime?: string }, cmd: Command) => {
      const { url, token } = cmd.optsWithGlobals<GlobalOptions>();
      const runtimeId = options.runtime ?? process.env.RUNTIMECTL_RUNTIME;
      // Loaded here, not at start: every other command would pay for the MCP SDK (~150 ms).
      const { serveStdio } = await import('@runtimectl/mcp');
      await serveStdio({ url, ...(token ? { token } : {}), ...(runtimeId ? { runtimeId } : {}) });
      // Served until the client closes stdin; the process then exits with nothing left to do.
      await new Promise<void>((resolve) => process.stdin.once('end', resolve).once('close', resolve));
    });
  withExamples(command, 'RUNTIMECTL_TOKEN=rtk_… runtimectl mcp --runtime rt_0123456789abcdef0123456789abcdef');
}
