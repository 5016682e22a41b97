/**
 * The size every emulated sandbox reports (E2B's smallest VM): CPU count, memory and disk in
 * sandbox info and metrics. Nominal: enforced only when `features.limits` sets real limits.
 */
export const NOMINAL_RESOURCES = { cpuCount: 2, memoryMB: 512, diskSizeMB: 10_240 } as const;
