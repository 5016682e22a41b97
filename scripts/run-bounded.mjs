#!/usr/bin/env node
// usage: node scripts/run-bounded.mjs <minutes> <command> [args…]
// Runs a command as the leader of its own process group and ends the whole group if it runs
// past <minutes>: CI's backstop behind the per-package watchdog (@runtimectl/ci-guard), so that
// even a stuck turbo or npm leaves time for the summary line before CI's own limit. Exits with
// the command's status, or 124 (as timeout(1) does) when it had to end it. Plain Node.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const [minutesArgument, command, ...args] = process.argv.slice(2);
const minutes = Number(minutesArgument);
if (!command || !(minutes > 0)) {
  console.error('usage: node scripts/run-bounded.mjs <minutes> <command> [args…]');
  process.exit(2);
}

const child = spawn(command, args, { stdio: 'inherit', detached: true });
const signalGroup = (signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
};
// CI stopping this script stops the group too (it is no longer in this script's group).
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => signalGroup(signal));

let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  console.error(`ci: ${[command, ...args].join(' ')} ran past ${minutes} min: ending it (the per-package watchdog should have stopped a stuck package first)`);
  signalGroup('SIGTERM');
  setTimeout(() => signalGroup('SIGKILL'), 30_000).unref();
}, minutes * 60_000);

child.on('error', (error) => {
  console.error(`ci: could not start ${command}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  clearTimeout(timer);
  // Anything the command left behind in its group (a server a test forgot) ends with it.
  signalGroup('SIGKILL');
  process.exit(timedOut ? 124 : (code ?? 128 + (constants.signals[signal] ?? 0)));
});
