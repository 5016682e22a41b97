/**
 * The admin API's shapes, shared by the routes, the in-process handle and the HTTP client,
 * so a test drives an emulator the same way whether it started it or another process did.
 */
import { z } from 'zod';
import type { IsolationProbe } from '../envd/isolation.js';
import type { NamespaceState } from '../sandbox/sandbox-namespace.js';
import type { ControlCallRecord } from '../knobs/call-log.js';
import type { DropStreamMode, KnobsSnapshot } from '../knobs/emulator-knobs.js';
import { EMULATOR_OPERATIONS, type EmulatorOperation } from '../knobs/operations.js';

/** Where the admin API lives on the emulator's one HTTP server. */
export const ADMIN_PREFIX = '/_emulator';

export interface SandboxStateView {
  sandboxId: string;
  templateId: string;
  alias?: string;
  state: 'running' | 'paused';
  metadata: Record<string, string>;
  startedAt: string;
  endAt: string;
  /** Host directory holding the sandbox's filesystem. */
  directory: string;
  runningProcesses: number;
  /** Where the sandbox's namespace sandbox is (`none` with directory isolation); see `NamespaceState`. */
  namespace: NamespaceState;
}

export interface SnapshotStateView {
  snapshotId: string;
  templateId: string;
  names: string[];
  sourceSandboxId: string;
  createdAt: string;
  directory: string;
}

/** `GET /_emulator/state`. */
export interface EmulatorStateView extends KnobsSnapshot {
  root: string;
  isolation: IsolationProbe;
  envdVersion: string;
  sandboxes: SandboxStateView[];
  snapshots: SnapshotStateView[];
}

/** The knobs, callable on the in-process handle and, over HTTP, on `E2BEmulatorAdminClient`. */
export interface EmulatorControls {
  /** Live sandboxes, snapshots, per-operation call counters and pending faults. */
  state(): Promise<EmulatorStateView>;
  /** Every control-plane call served (oldest first, the last 20,000), with start, end and status. */
  callLog(): Promise<ControlCallRecord[]>;
  /** Clears call counters, the call log and pending faults (latencies and the sandbox limit stay). */
  reset(): Promise<void>;
  /** Delay in ms applied to every call of `operation` before it is answered. */
  setLatency(operation: EmulatorOperation, ms: number): Promise<void>;
  setLatencies(latency: Partial<Record<EmulatorOperation, number>>): Promise<void>;
  /** Concurrent running sandboxes allowed (429 beyond); null lifts the limit. */
  setMaxSandboxes(maxSandboxes: number | null): Promise<void>;
  /** The next `count` (default 1) calls of `operation` answer `status` (with `message`). */
  failNext(operation: EmulatorOperation, fault: FailNextOptions): Promise<void>;
  /** The next `count` (default 1) calls of `operation` wait `ms` first. */
  hangNext(operation: EmulatorOperation, fault: HangNextOptions): Promise<void>;
  /** The next `count` (default 1) `process.Process/Start` streams end without their `end` event. */
  dropNextStreams(fault?: DropStreamOptions): Promise<void>;
  /** Lets a running sandbox's timeout lapse now; false when it is not running. */
  expireSandbox(sandboxId: string): Promise<boolean>;
}

const operation = z.enum(EMULATOR_OPERATIONS);

export const failNextBody = z.object({
  operation,
  count: z.number().int().min(1).optional(),
  status: z.number().int().min(400).max(599),
  message: z.string().optional(),
});
export type FailNextOptions = Omit<z.infer<typeof failNextBody>, 'operation'>;

export const hangNextBody = z.object({
  operation,
  count: z.number().int().min(1).optional(),
  ms: z.number().int().min(0),
});
export type HangNextOptions = Omit<z.infer<typeof hangNextBody>, 'operation'>;

export const dropStreamBody = z.object({
  count: z.number().int().min(1).optional(),
  mode: z.enum(['omit-end', 'reset'] satisfies DropStreamMode[]).optional(),
});
export type DropStreamOptions = z.infer<typeof dropStreamBody>;

export const latencyBody = z.partialRecord(operation, z.number().min(0));

export const maxSandboxesBody = z.object({ maxSandboxes: z.number().int().min(0).nullable() });
