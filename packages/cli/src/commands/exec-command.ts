import type { Command } from 'commander';
import { quote } from 'shell-quote';
import type { CliIo } from '../cli-io';
import { EXIT_CODES } from '../errors/exit-codes';
import { UsageError } from '../errors/usage-error';
import { integerIn, keyValuePair, parseEnvPairs } from '../options/parse-options';
import { contextOf, withExamples } from './command-support';

interface ExecOptions {
  cwd?: string;
  timeout?: number;
  env?: string[];
  shell?: string;
}

const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** Room for the daemon to answer after the command's own deadline. */
const ANSWER_MARGIN_MS = 60_000;

export function registerExecCommand(program: Command, io: CliIo): void {
  const command = program
    .command('exec')
    .description("run a command in a runtime; print its stdout and stderr as its own and exit with its exit code")
    .argument('<runtime>', 'runtime id')
    .argument('<command...>', 'the command, after --; one argument is run as a shell line, several are quoted word by word')
    .option('--cwd <dir>', "working directory, relative to the runtime's workspace")
    .option('--timeout <ms>', 'kill the command after this many milliseconds (exit 124)', integerIn(1, MAX_TIMEOUT_MS))
    .option('--env <key=value...>', 'environment variables for the command', keyValuePair)
    .option('--shell <shell>', "shell that runs the line (default: the provider's)")
    .action(async (runtimeId: string, words: string[], options: ExecOptions, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const env = parseEnvPairs(options.env);
      const client = ctx.clientWithTimeout((options.timeout ?? MAX_TIMEOUT_MS) + ANSWER_MARGIN_MS);
      const result = await client.exec({
        runtime_id: runtimeId,
        command: commandLineOf(words),
        ...(options.cwd ? { cwd: options.cwd } : {}),
        ...(options.timeout !== undefined ? { timeout_ms: options.timeout } : {}),
        ...(options.shell ? { shell: options.shell } : {}),
        ...(env ? { env } : {}),
      });
      if (ctx.json) {
        ctx.printJson(result);
      } else {
        io.stdout.write(Buffer.from(result.stdout_base64, 'base64'));
        io.stderr.write(Buffer.from(result.stderr_base64, 'base64'));
        if (result.truncated) io.stderr.write("runtimectl: the command's output was cut at the daemon's output limit\n");
        if (result.timed_out) {
          const limit = options.timeout !== undefined ? `after ${options.timeout} ms` : "at the daemon's exec timeout";
          io.stderr.write(`runtimectl: the command timed out ${limit} and was killed (exit 124)\n`);
        }
        else if (result.exit_code === null) io.stderr.write('runtimectl: the command was killed by a signal\n');
      }
      io.setExitCode(exitCodeOf(result));
    });
  withExamples(
    command,
    'runtimectl exec demo -- ls -la',
    "runtimectl exec demo --cwd src --env DEBUG=1 -- 'npm test 2>&1 | tail -n 20'",
    'runtimectl exec demo --timeout 5000 -- sleep 10   # exits 124',
  );
}

/**
 * The API takes one shell line. A single word is passed as written (so pipes and redirections in
 * a quoted line work); several words are quoted one by one, so `-- grep "a b" file` means what it
 * would mean locally.
 */
export function commandLineOf(words: readonly string[]): string {
  if (words.length === 0) throw new UsageError('give the command to run after --, e.g. runtimectl exec demo -- ls');
  return words.length === 1 ? words[0]! : quote([...words]);
}

function exitCodeOf(result: { exit_code: number | null; timed_out: boolean }): number {
  if (result.timed_out) return EXIT_CODES.execTimedOut;
  return result.exit_code ?? EXIT_CODES.failed;
}
