import { InvalidRequestError, PathNotFoundError, ProviderError, type ExecRequest, type ExecResult } from '@runtimectl/provider';
import type { Sandbox } from 'e2b';
import { PROVIDER_ID } from '../e2b-errors';
import { parseCommandOutput } from './command-outcome';
import { commandScript } from './command-script';
import { runScript } from './run-script';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Between SIGTERM and SIGKILL to a timed-out command's process group (as the local provider). */
export const KILL_GRACE_MS = 300;
/**
 * envd's own deadline for the command stream sits this far behind the script's watchdog: it is
 * only the backstop for a script that could not kill its command.
 */
const STREAM_DEADLINE_MARGIN_MS = 10_000;

export interface RunCommandRequest extends ExecRequest {
  /** Absolute directory in the sandbox. */
  cwd: string;
  /** The path as the caller gave it, for error messages. */
  cwdPath: string;
  shell: string;
}

function checkRequest(request: RunCommandRequest): void {
  if (request.command.includes('\0')) throw new InvalidRequestError('the command must not contain NUL bytes');
  if (request.shell.includes('\0')) throw new InvalidRequestError('the shell must not contain NUL bytes');
  for (const [name, value] of Object.entries(request.env ?? {})) {
    if (!ENV_NAME.test(name)) throw new InvalidRequestError(`env name ${JSON.stringify(name)} is not a variable name`, { name });
    if (value.includes('\0')) throw new InvalidRequestError(`env ${name} must not contain NUL bytes`, { name });
  }
}

/**
 * Runs one exec through `commands.run` with the command script (see `commandScript`). A
 * non-zero exit makes the SDK throw `CommandExitError`: that is a result, read from the error's
 * stdout like any other (`runScript`). Output comes back byte-exact and capped at
 * `maxOutputBytes`; past its timeout the command's whole process group is killed and the result
 * says `timedOut`.
 */
export async function runCommand(sandbox: Sandbox, request: RunCommandRequest, options: { requestTimeoutMs: number; user: string }): Promise<ExecResult> {
  checkRequest(request);
  const script = commandScript({
    cwd: request.cwd,
    shell: request.shell,
    command: request.command,
    env: request.env ?? {},
    maxOutputBytes: request.maxOutputBytes,
    killGraceMs: KILL_GRACE_MS,
    ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
  });
  // 0 = no stream deadline: without a timeout the caller's own deadline (core's) governs.
  const streamTimeoutMs = request.timeoutMs === undefined ? 0 : request.timeoutMs + KILL_GRACE_MS + STREAM_DEADLINE_MARGIN_MS;
  const ran = await runScript(sandbox, script, { ...options, streamTimeoutMs });
  if (ran.kind === 'timed_out') {
    // The backstop fired: the script itself could not report (its watchdog should have come first).
    return { stdout: new Uint8Array(), stderr: new Uint8Array(), exitCode: null, timedOut: true, truncated: false };
  }
  const outcome = parseCommandOutput(ran.stdout, request.maxOutputBytes);
  switch (outcome.kind) {
    case 'result':
      return outcome.result;
    case 'cwd_missing':
      // `cd` failed: missing, or not a directory (the backend tells those apart on this rare path).
      throw new PathNotFoundError(request.cwdPath);
    case 'setup_failed':
      throw new ProviderError(PROVIDER_ID, 'exec', 'the sandbox could not set up the command (mktemp or mkfifo failed: is /tmp writable?)');
    case 'unreadable':
      throw new ProviderError(PROVIDER_ID, 'exec', 'the command ended without reporting its result (does the template have bash, coreutils and setsid?)');
  }
}
