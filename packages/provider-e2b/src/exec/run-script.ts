import { CommandExitError, TimeoutError, type Sandbox } from 'e2b';
import { withDeadline } from '../request-deadline';

export interface RunScriptOptions {
  /** Deadline for the command to start (envd's `start` event). */
  requestTimeoutMs: number;
  /** Deadline for the whole command once started; 0 for none. */
  streamTimeoutMs: number;
  /** The sandbox user the command runs as (`E2BProviderSettings.user`). */
  user: string;
}

export type ScriptOutcome = { kind: 'finished'; stdout: string; exitCode: number } | { kind: 'timed_out' };

/** Our own timer trails envd's stream deadline by this much: envd's answer is preferred. */
const OWN_TIMER_MARGIN_MS = 2_000;

/**
 * Runs `script` with `commands.run` (as `/bin/bash -l -c <script>`) in two phases, each under a
 * deadline this provider enforces itself (see `withDeadline`): starting, bounded by the request
 * timeout; then running, bounded by `streamTimeoutMs` — envd's own deadline, with a timer of
 * ours as the backstop that kills the command and drops the stream. A non-zero exit makes the
 * SDK throw `CommandExitError`: that is an outcome like any other here.
 */
export async function runScript(sandbox: Sandbox, script: string, options: RunScriptOptions): Promise<ScriptOutcome> {
  const handle = await withDeadline(options.requestTimeoutMs, (signal) =>
    sandbox.commands.run(script, {
      background: true,
      stdin: false,
      timeoutMs: options.streamTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs,
      user: options.user,
      signal,
    }),
  );
  const startedAt = performance.now();
  const finished = handle.wait().then(
    (result): ScriptOutcome => ({ kind: 'finished', stdout: result.stdout, exitCode: result.exitCode }),
    (error: unknown): ScriptOutcome => {
      if (error instanceof CommandExitError) return { kind: 'finished', stdout: error.stdout, exitCode: error.exitCode };
      // envd ended the stream at its deadline: the command ran out of time.
      if (error instanceof TimeoutError && options.streamTimeoutMs > 0 && performance.now() - startedAt >= options.streamTimeoutMs - 50) {
        return { kind: 'timed_out' };
      }
      throw error;
    },
  );
  if (options.streamTimeoutMs === 0) return finished;
  finished.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const ownDeadline = new Promise<ScriptOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timed_out' }), options.streamTimeoutMs + OWN_TIMER_MARGIN_MS);
  });
  try {
    const outcome = await Promise.race([finished, ownDeadline]);
    if (outcome.kind === 'timed_out') {
      await handle.kill().catch(() => false);
      await handle.disconnect();
    }
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}
