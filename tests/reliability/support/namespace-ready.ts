import type { E2BEmulatorAdminClient } from '@runtimectl/e2b-emulator';
import { eventually, sandboxesOf } from './invariants';

/**
 * Waits until the emulator sandbox of `runtimeId` has its namespace built (built in the
 * background at create; nothing to build with directory isolation), so the next command starts
 * at once instead of waiting for it. Returns what was still wrong after the wait (empty: ready).
 */
export async function namespaceReady(admin: E2BEmulatorAdminClient, runtimeId: string): Promise<string[]> {
  const report = await eventually(async () => {
    const state = await admin.state();
    const expected = state.isolation.mode === 'mount-namespace' ? 'ready' : 'none';
    const namespaces = sandboxesOf(state, runtimeId).map((sandbox) => sandbox.namespace);
    return { problems: namespaces.length === 1 && namespaces[0] === expected ? [] : [`namespace ${namespaces.join(', ') || 'of no sandbox'}, not ${expected}`] };
  }, 60_000);
  return report.problems;
}
