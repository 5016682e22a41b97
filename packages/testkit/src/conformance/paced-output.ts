/**
 * Commands whose output reaches the provider in many small writes, and what each must print.
 * A provider that copies output with a fixed number of `read`s (not bytes) loses the tail of
 * such output; these make that visible. `seq` is in coreutils and in the memory provider's
 * built-in command set; the paced loop needs a real shell.
 */

/** What `seq FIRST LAST` prints: one number a line. */
export function seqOutput(first: number, last: number): string {
  let output = '';
  for (let number = first; number <= last; number += 1) output += `${number}\n`;
  return output;
}

/** Prints `step 1` … `step COUNT`, one line every `pauseSeconds`, then `DONE`, to stdout or stderr. */
export function pacedLinesCommand(count: number, pauseSeconds: number, stream: 'stdout' | 'stderr'): string {
  const loop = `for i in $(seq 1 ${count}); do echo step $i; sleep ${pauseSeconds}; done; echo DONE`;
  return stream === 'stdout' ? loop : `{ ${loop}; } >&2`;
}

/** What `pacedLinesCommand(count, …)` prints. */
export function pacedLinesOutput(count: number): string {
  let output = '';
  for (let step = 1; step <= count; step += 1) output += `step ${step}\n`;
  return `${output}DONE\n`;
}
