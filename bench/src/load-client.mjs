// The parent's side of the load generator: one long-lived child process, pinned to its own core.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeOnCore, stopChild } from './processes.mjs';

const SCRIPT = fileURLToPath(new URL('./load-generator.mjs', import.meta.url));

/** Starts the load generator on `core`; `run(spec)` resolves with one load's figures. */
export async function startLoadGenerator(core) {
  const [command, args] = nodeOnCore(core, [SCRIPT]);
  // taskset execs node, which inherits the IPC channel's file descriptor.
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map();
  let nextId = 0;
  await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`load generator exited with ${code} before it was ready`)));
    child.once('message', (message) => (message.ready ? resolve() : reject(new Error('load generator: unexpected first message'))));
  });
  child.removeAllListeners('exit');
  child.on('message', ({ id, result, error }) => {
    const waiter = pending.get(id);
    pending.delete(id);
    if (error) waiter?.reject(new Error(`load generator: ${error}`));
    else waiter?.resolve(result);
  });
  child.on('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`load generator exited with ${code}`));
    pending.clear();
  });
  return {
    pid: child.pid,
    run(spec) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, spec });
      });
    },
    close: () => stopChild(child),
  };
}
