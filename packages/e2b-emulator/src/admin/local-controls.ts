/** `EmulatorControls` acting directly on a running emulator's state (used by the handle and the admin routes). */
import type { EmulatorContext } from '../emulator-context.js';
import { snapshotIdOf, snapshotNamesOf } from '../sandbox/snapshot-store.js';
import type { EmulatorControls, EmulatorStateView } from './admin-types.js';

export function localControls(context: EmulatorContext): EmulatorControls {
  const { knobs } = context;
  return {
    async state(): Promise<EmulatorStateView> {
      return {
        root: context.root,
        isolation: { ...context.isolation },
        envdVersion: context.envdVersion,
        sandboxes: context.sandboxes.all().map((record) => ({
          sandboxId: record.sandboxId,
          templateId: record.templateId,
          ...(record.alias ? { alias: record.alias } : {}),
          state: record.state,
          metadata: { ...record.metadata },
          startedAt: new Date(record.startedAtMs).toISOString(),
          endAt: new Date(record.endAtMs).toISOString(),
          directory: record.directory,
          runningProcesses: record.processes.size,
          namespace: record.namespace.state,
        })),
        snapshots: context.snapshots.list().map((record) => ({
          snapshotId: snapshotIdOf(record),
          templateId: record.templateId,
          names: snapshotNamesOf(record),
          sourceSandboxId: record.sourceSandboxId,
          createdAt: new Date(record.createdAtMs).toISOString(),
          directory: record.directory,
        })),
        ...knobs.snapshot(),
      };
    },
    async callLog() {
      return context.calls.list();
    },
    async reset() {
      knobs.reset();
      context.calls.clear();
    },
    async setLatency(operation, ms) {
      knobs.setLatency(operation, ms);
    },
    async setLatencies(latency) {
      knobs.setLatencies(latency);
    },
    async setMaxSandboxes(maxSandboxes) {
      knobs.maxSandboxes = maxSandboxes;
    },
    async failNext(operation, fault) {
      knobs.failNext(operation, fault);
    },
    async hangNext(operation, fault) {
      knobs.hangNext(operation, fault);
    },
    async dropNextStreams(fault = {}) {
      knobs.dropNextStreams(fault);
    },
    async expireSandbox(sandboxId) {
      return context.sandboxes.expireNow(sandboxId);
    },
  };
}
