import { startE2BEmulator, type E2BEmulator, type E2BEmulatorOptions } from '@runtimectl/e2b-emulator';
import { withinDeadline } from '@runtimectl/testkit/server-process';

/** A bound on the emulator's start (its isolation probe builds a real sandbox): a module-level await has no test timeout. */
const START_DEADLINE_MS = 120_000;

/** `startE2BEmulator` under a deadline; an emulator that comes up too late is closed. */
export function startBoundedEmulator(options: E2BEmulatorOptions = {}): Promise<E2BEmulator> {
  return withinDeadline({ server: 'the e2b emulator', phase: 'start', deadlineMs: START_DEADLINE_MS }, () => startE2BEmulator(options), (late) => late.close());
}
