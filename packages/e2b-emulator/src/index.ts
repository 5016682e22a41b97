export { startE2BEmulator } from './start-e2b-emulator.js';
export type { E2BEmulator, E2BEmulatorOptions } from './start-e2b-emulator.js';
export { E2BEmulatorAdminClient, E2BEmulatorAdminError } from './admin/admin-client.js';
export { ADMIN_PREFIX } from './admin/admin-types.js';
export type {
  DropStreamOptions,
  EmulatorControls,
  EmulatorStateView,
  FailNextOptions,
  HangNextOptions,
  SandboxStateView,
  SnapshotStateView,
} from './admin/admin-types.js';
export { EMULATOR_OPERATIONS, isEmulatorOperation } from './knobs/operations.js';
export type { EmulatorOperation } from './knobs/operations.js';
export type { DropStreamMode } from './knobs/emulator-knobs.js';
export type { ControlCallRecord } from './knobs/call-log.js';
export type { IsolationFeatures, IsolationMode, IsolationPreference, IsolationProbe } from './envd/isolation.js';
export type { BuiltinTemplate } from './sandbox/template-catalog.js';
