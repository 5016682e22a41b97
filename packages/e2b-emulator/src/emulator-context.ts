/** Everything a route needs, built once by `startE2BEmulator` and shared by all routes. */
import type { IsolationProbe } from './envd/isolation.js';
import type { CallLog } from './knobs/call-log.js';
import type { EmulatorKnobs } from './knobs/emulator-knobs.js';
import type { SandboxStore } from './sandbox/sandbox-store.js';
import type { SnapshotStore } from './sandbox/snapshot-store.js';
import type { TemplateCatalog } from './sandbox/template-catalog.js';

export interface EmulatorContext {
  readonly root: string;
  readonly sandboxes: SandboxStore;
  readonly snapshots: SnapshotStore;
  readonly templates: TemplateCatalog;
  readonly knobs: EmulatorKnobs;
  /** Every control-plane call with its start and end (`GET /_emulator/call-log`). */
  readonly calls: CallLog;
  readonly isolation: IsolationProbe;
  /** Reported as `envdVersion`; decides which SDK code paths are used (see README). */
  readonly envdVersion: string;
  /** Sandbox timeout when a create/connect request names none (E2B: 300 s). */
  readonly defaultTimeoutSeconds: number;
}
