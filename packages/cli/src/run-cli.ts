import { CommanderError } from 'commander';
import type { CliIo } from './cli-io';
import { describeError } from './errors/describe-error';
import { EXIT_CODES } from './errors/exit-codes';
import { createProgram, DEFAULT_URL } from './program';

/**
 * Runs `runtimectl` with `argv` (user arguments only, without node and the script) and
 * resolves with the exit code; every failure becomes one line on stderr.
 */
export async function runCli(argv: readonly string[], io: Omit<CliIo, 'setExitCode'>): Promise<number> {
  let exitCode: number = EXIT_CODES.ok;
  const program = createProgram({ ...io, setExitCode: (code) => (exitCode = code) });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version "fail" with exit code 0; every other commander error is usage.
      return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    }
    const options = program.opts<{ url?: string; token?: string }>();
    const described = describeError(error, { url: options.url ?? DEFAULT_URL, tokenGiven: Boolean(options.token) });
    io.stderr.write(`runtimectl: ${described.line}\n`);
    return described.exitCode;
  }
}
