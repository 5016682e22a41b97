import type { CheckoutChildResult } from '@runtimectl/core';
import type { CliContext } from '../cli-context';
import { EXIT_CODES, exitCodeForErrorCode } from '../errors/exit-codes';

/** One line per child of an N-way checkout or fork: its runtime id (through `highlight`), or its error code and message. */
export function childLines(results: readonly CheckoutChildResult[], highlight: (runtimeId: string) => string): string[] {
  return results.map((child) => ('runtime' in child ? highlight(child.runtime.runtime_id) : `error ${child.error.code}: ${child.error.message}`));
}

/** 0 when every child was made; else the exit code of the first failed child's error (scripts see the partial failure). */
export function childrenExitCode(results: readonly CheckoutChildResult[]): number {
  const failed = results.find((child) => 'error' in child);
  return failed && 'error' in failed ? exitCodeForErrorCode(failed.error.code) : EXIT_CODES.ok;
}

/** Prints an N-way answer (`--json`: all of it; `--quiet`: the ids made; else one line per child) and sets the exit code. */
export function emitChildren(ctx: CliContext, result: { results: CheckoutChildResult[] }, setExitCode: (code: number) => void): void {
  ctx.emit(result, {
    human: (answer) => childLines(answer.results, (id) => ctx.colors.bold(id)),
    quiet: (answer) => answer.results.flatMap((child) => ('runtime' in child ? [child.runtime.runtime_id] : [])),
  });
  setExitCode(childrenExitCode(result.results));
}
