import type { ControlCallRecord } from '@runtimectl/e2b-emulator';

/** The E2B calls that change a sandbox's existence or capture it: two of them at once for one runtime means two owners. */
const GUARDED = new Set(['create', 'snapshot', 'kill']);

export interface CallOverlap {
  key: string;
  first: ControlCallRecord;
  second: ControlCallRecord;
}

const describeCall = (call: ControlCallRecord, origin: number) =>
  `${call.operation} ${call.sandboxId ?? '-'} ${call.status} [${Math.round(call.startedAtMs - origin)}–${Math.round(call.endedAtMs - origin)} ms]`;

/**
 * Pairs of snapshot / kill / create calls at the emulator that overlapped in time for one
 * runtime's sandbox: on the same sandbox, or two creates for the same runtime (the provider
 * labels each sandbox with its runtime id in `metadata.runtimectl_runtime_id`). A fleet that
 * grants a runtime to one node at a time never makes one.
 */
export function overlappingCalls(log: ControlCallRecord[]): CallOverlap[] {
  const groups = new Map<string, ControlCallRecord[]>();
  const add = (key: string, call: ControlCallRecord) => groups.set(key, [...(groups.get(key) ?? []), call]);
  for (const call of log) {
    if (!GUARDED.has(call.operation)) continue;
    if (call.sandboxId !== null) add(`sandbox ${call.sandboxId}`, call);
    const runtimeId = call.metadata.runtimectl_runtime_id;
    if (call.operation === 'create' && runtimeId !== undefined) add(`creates for runtime ${runtimeId}`, call);
  }
  const overlaps: CallOverlap[] = [];
  for (const [key, calls] of groups) {
    const sorted = [...calls].sort((a, b) => a.startedAtMs - b.startedAtMs);
    for (let i = 0; i < sorted.length; i += 1) {
      for (let j = i + 1; j < sorted.length && sorted[j]!.startedAtMs < sorted[i]!.endedAtMs; j += 1) {
        overlaps.push({ key, first: sorted[i]!, second: sorted[j]! });
      }
    }
  }
  return overlaps;
}

/** One line per overlap, times relative to `origin` (epoch ms). */
export function describeOverlaps(overlaps: CallOverlap[], origin: number): string[] {
  return overlaps.map(({ key, first, second }) => `${key}: ${describeCall(first, origin)} overlaps ${describeCall(second, origin)}`);
}
