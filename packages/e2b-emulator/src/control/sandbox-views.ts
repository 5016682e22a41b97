/** The JSON shapes the control plane answers with (E2B's OpenAPI `Sandbox`, `SandboxDetail`, `ListedSandbox`). */
import { NOMINAL_RESOURCES } from '../sandbox/nominal-resources.js';
import type { SandboxRecord } from '../sandbox/sandbox-store.js';

/** `clientID` is deprecated but required by the schema; E2B sends a fixed value too. */
const CLIENT_ID = '6532622b';
const { cpuCount: CPU_COUNT, memoryMB: MEMORY_MB, diskSizeMB: DISK_SIZE_MB } = NOMINAL_RESOURCES;

/** 201/200 body of create and connect. */
export function sandboxView(record: SandboxRecord, envdVersion: string): Record<string, unknown> {
  return {
    sandboxID: record.sandboxId,
    templateID: record.templateId,
    ...(record.alias ? { alias: record.alias } : {}),
    clientID: CLIENT_ID,
    envdVersion,
    envdAccessToken: record.envdAccessToken,
    domain: null,
    trafficAccessToken: null,
  };
}

/** One item of `GET /v2/sandboxes`. */
export function listedSandboxView(record: SandboxRecord, envdVersion: string): Record<string, unknown> {
  return {
    sandboxID: record.sandboxId,
    templateID: record.templateId,
    ...(record.alias ? { alias: record.alias } : {}),
    clientID: CLIENT_ID,
    cpuCount: CPU_COUNT,
    memoryMB: MEMORY_MB,
    diskSizeMB: DISK_SIZE_MB,
    startedAt: new Date(record.startedAtMs).toISOString(),
    endAt: new Date(record.endAtMs).toISOString(),
    state: record.state,
    envdVersion,
    metadata: { ...record.metadata },
    volumeMounts: [],
  };
}

/** 200 body of `GET /sandboxes/{id}`. */
export function sandboxDetailView(record: SandboxRecord, envdVersion: string): Record<string, unknown> {
  return {
    ...listedSandboxView(record, envdVersion),
    envdAccessToken: record.envdAccessToken,
    domain: null,
    allowInternetAccess: record.allowInternetAccess,
    lifecycle: { onTimeout: record.onTimeout, autoResume: false },
  };
}
