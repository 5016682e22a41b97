import { CommanderError, type Command } from 'commander';
import { commandPathOf } from './commands/command-support';
import type { CliIo } from './cli-io';
import { describeError } from './errors/describe-error';
import { errorDocument, usageErrorDocument } from './errors/error-document';
import { EXIT_CODES } from './errors/exit-codes';
import { createProgram, DEFAULT_URL } from './program';

/**
 * Runs `runtimectl` with `argv` (user arguments only, without node and the script) and
 * resolves with the exit code; every failure becomes one line on stderr and, with --json, also
 * the one JSON document on stdout (so a script reading stdout always gets a document).
 */
export async function runCli(argv: readonly string[], io: Omit<CliIo, 'setExitCode'>): Promise<number> {
  let exitCode: number = EXIT_CODES.ok;
  const program = createProgram({ ...io, setExitCode: (code) => (exitCode = code) });
  let running: Command | undefined;
  program.hook('preAction', (_program, action) => {
    running = action;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    const options = program.opts<{ url?: string; token?: string; json?: boolean; idempotencyKey?: string }>();
    const json = options.json === true || jsonRequested(argv);
    if (error instanceof CommanderError) {
      // --help and --version "fail" with exit code 0; every other commander error is usage.
      if (error.exitCode === 0) return EXIT_CODES.ok;
      if (json) printJson(io, usageErrorDocument(error.message));
      return EXIT_CODES.usage;
    }
    const described = describeError(error, {
      url: options.url ?? DEFAULT_URL,
      tokenGiven: Boolean(options.token),
      ...(running ? { command: commandPathOf(running) } : {}),
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    });
    io.stderr.write(`runtimectl: ${described.line}\n`);
    if (json) printJson(io, errorDocument(described));
    return described.exitCode;
  }
}

/** `--json` among the CLI's own arguments (before `--`), for errors raised before options are parsed. */
function jsonRequested(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

function printJson(io: Pick<CliIo, 'stdout'>, document: unknown): void {
  io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
}
