import { randomUUID } from 'node:crypto';
import { Command, Option } from 'commander';
import type { CliIo } from './cli-io';
import { registerCheckoutCommand } from './commands/checkout-command';
import { commandPathOf } from './commands/command-support';
import { registerCheckpointCommand } from './commands/checkpoint-command';
import { registerCloseCommand } from './commands/close-command';
import { registerCompletionCommand } from './commands/completion-command';
import { registerDeleteSnapshotCommand } from './commands/delete-snapshot-command';
import { registerDiffCommand } from './commands/diff-command';
import { registerEventsCommand } from './commands/events-command';
import { registerExecCommand } from './commands/exec-command';
import { registerExportCommand } from './commands/export-command';
import { registerCatCommand, registerWriteCommand } from './commands/file-commands';
import { registerForkCommand } from './commands/fork-command';
import { registerLogCommand } from './commands/log-command';
import { registerKeysCommand } from './commands/keys-command';
import { registerLsCommand } from './commands/ls-command';
import { registerLsTreeCommand } from './commands/ls-tree-command';
import { registerMcpCommand } from './commands/mcp-command';
import { registerNodesCommand } from './commands/nodes-command';
import { registerOpenCommand } from './commands/open-command';
import { registerPauseCommand, registerResumeCommand } from './commands/pause-resume-commands';
import { registerHealthCommand, registerProvidersCommand } from './commands/service-commands';
import { registerShowCommand } from './commands/show-command';
import { registerUpdateCommand } from './commands/update-command';
import { registerPinCommand, registerRetentionCommand } from './commands/retention-commands';
import { registerWebhooksCommand } from './commands/webhooks-command';
import { EXIT_CODE_HELP } from './errors/exit-codes';
import { daemonUrl, idempotencyKey } from './options/parse-options';
import { CLI_VERSION } from './version';

export const DEFAULT_URL = 'http://127.0.0.1:7333';

const PROGRAM_HELP = `
Examples:
  $ runtimectl open --id demo
  $ runtimectl exec demo -- 'echo hello > hello.txt'
  $ runtimectl checkpoint demo -n first
  $ BRANCH=$(runtimectl fork demo --quiet)
  $ runtimectl exec "$BRANCH" -- cat hello.txt
  $ runtimectl log demo --graph

Output: tables for people; --json prints exactly one JSON document on stdout (the API's
response shapes, or {error, code, details, exit_code} on failure); --quiet prints only ids. Colour only on a terminal, never with NO_COLOR.

${EXIT_CODE_HELP}
`;

/**
 * The `runtimectl` command tree with its global options. Commander errors are thrown (not
 * exited) so main decides the exit code; output goes through `io`.
 */
export function createProgram(io: CliIo): Command {
  const program = new Command('runtimectl')
    .description('Operate a runtimectl daemon (runtimed): open runtimes, run commands, checkpoint, check out, pause and resume them.')
    .version(CLI_VERSION, '-V, --version', 'print the version')
    .addOption(new Option('--url <url>', 'daemon URL').env('RUNTIMECTL_URL').default(DEFAULT_URL).argParser(daemonUrl))
    .addOption(new Option('--token <token>', 'bearer token, when the daemon has auth').env('RUNTIMECTL_TOKEN'))
    .addOption(
      new Option('--idempotency-key <key>', "the command's Idempotency-Key: run a command again with the key its error named, and the daemon carries it out once")
        .default(randomUUID(), 'a new one per command')
        .argParser(idempotencyKey),
    )
    .option('--json', 'machine output: exactly one JSON document on stdout')
    .option('-q, --quiet', 'print only ids (or nothing); no hints, no spinner')
    .helpOption('-h, --help', 'show help')
    .addHelpText('after', PROGRAM_HELP)
    .showSuggestionAfterError(true)
    .configureOutput(outputFor(io, 'runtimectl'))
    .exitOverride();

  for (const register of [
    registerOpenCommand,
    registerLsCommand,
    registerShowCommand,
    registerUpdateCommand,
    registerExecCommand,
    registerCatCommand,
    registerWriteCommand,
    registerExportCommand,
    registerCheckpointCommand,
    registerCheckoutCommand,
    registerForkCommand,
    registerPauseCommand,
    registerResumeCommand,
    registerCloseCommand,
    registerDeleteSnapshotCommand,
    registerPinCommand,
    registerRetentionCommand,
    registerDiffCommand,
    registerLsTreeCommand,
    registerLogCommand,
    registerEventsCommand,
    registerWebhooksCommand,
    registerKeysCommand,
    registerMcpCommand,
    registerProvidersCommand,
    registerNodesCommand,
    registerHealthCommand,
    registerCompletionCommand,
  ]) {
    register(program, io);
  }
  // Commands copy the program's output settings when made; each usage line names its own --help.
  for (const command of allCommandsOf(program)) command.configureOutput(outputFor(io, commandPathOf(command)));
  return program;
}

/** Where commander writes, and its own errors made one line that says whose --help to read. */
function outputFor(io: CliIo, commandPath: string) {
  return {
    writeOut: (text: string) => io.stdout.write(text),
    writeErr: (text: string) => io.stderr.write(text),
    outputError: (text: string, write: (text: string) => void) => write(`runtimectl: ${text.replace(/^error: /, '').trim()} (see ${commandPath} --help)\n`),
  };
}

function allCommandsOf(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommandsOf(child)]);
}
