/** What Start and Connect share: the process a selector names, and envd's `end` event. */
import type { ProcessExit, SandboxProcess } from '../sandbox/sandbox-processes.js';
import type { SandboxRecord } from '../sandbox/sandbox-store.js';
import { ConnectRpcError } from './connect-framing.js';

export function endEvent(exit: ProcessExit): Record<string, unknown> {
  return {
    exitCode: exit.exitCode,
    exited: exit.exited,
    status: exit.status,
    ...(exit.error ? { error: exit.error } : {}),
  };
}

/** The process by pid or tag; ConnectRpcError `not_found` when there is none, as envd. */
export function findProcess(sandbox: SandboxRecord, selected: { pid?: number | undefined; tag?: string | undefined }): SandboxProcess {
  const found = sandbox.processes.find(selected);
  if (!found) throw new ConnectRpcError('not_found', `process with ${selected.pid !== undefined ? `pid ${selected.pid}` : `tag '${selected.tag ?? ''}'`} not found`);
  return found;
}
